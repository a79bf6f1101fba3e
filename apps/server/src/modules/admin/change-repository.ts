import { and, count, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.ts';
import { pendingChanges, staff } from './schema.ts';

export type PendingChangeRow = typeof pendingChanges.$inferSelect;
export type DecidedStatus = 'approved' | 'rejected' | 'superseded';
/** A change with its proposer's and decider's e-mails ('' when unknown or undecided). */
export interface ListedChange {
  change: PendingChangeRow;
  proposer: string;
  decider: string;
}

export async function insertPendingChange(
  db: DbOrTx,
  values: { kind: string; target: string; payload: unknown; diff: unknown; proposedBy: number },
): Promise<number> {
  const [row] = await db.insert(pendingChanges).values(values).returning({ id: pendingChanges.id });
  return row!.id;
}

export async function findPendingChange(db: DbOrTx, id: number): Promise<PendingChangeRow | undefined> {
  const [row] = await db.select().from(pendingChanges).where(eq(pendingChanges.id, id)).limit(1);
  return row;
}

/** Decides a change that is still pending; false when another decision came first. */
export async function decidePendingChange(
  db: DbOrTx,
  id: number,
  status: DecidedStatus,
  staffId: number,
  reason?: string,
): Promise<boolean> {
  const done = await db
    .update(pendingChanges)
    .set({ status, decidedBy: staffId, decidedAt: new Date(), ...(reason ? { reason } : {}) })
    .where(and(eq(pendingChanges.id, id), eq(pendingChanges.status, 'pending')))
    .returning({ id: pendingChanges.id });
  return done.length > 0;
}

function selectListed(db: DbOrTx) {
  const decider = alias(staff, 'decider');
  return db
    .select({ change: pendingChanges, proposer: staff.email, decider: decider.email })
    .from(pendingChanges)
    .leftJoin(staff, eq(staff.id, pendingChanges.proposedBy))
    .leftJoin(decider, eq(decider.id, pendingChanges.decidedBy));
}
const listed = (r: { change: PendingChangeRow; proposer: string | null; decider: string | null }): ListedChange => ({
  change: r.change,
  proposer: r.proposer ?? '',
  decider: r.decider ?? '',
});

/** Pending changes first, oldest first (the queue), then decided ones, newest first. */
export async function listPendingChanges(db: DbOrTx, page: number, limit: number): Promise<{ rows: ListedChange[]; total: number }> {
  const [rows, [counted]] = await Promise.all([
    selectListed(db)
      .orderBy(
        sql`case when ${pendingChanges.status} = 'pending' then 0 else 1 end`,
        sql`case when ${pendingChanges.status} = 'pending' then ${pendingChanges.id} else -${pendingChanges.id} end`,
      )
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(pendingChanges),
  ]);
  return { rows: rows.map(listed), total: Number(counted?.n ?? 0) };
}

export async function findListedChange(db: DbOrTx, id: number): Promise<ListedChange | undefined> {
  const [row] = await selectListed(db).where(eq(pendingChanges.id, id)).limit(1);
  return row && listed(row);
}
