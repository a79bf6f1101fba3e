import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { withdrawals } from './schema.ts';
import { countAll, offsetOf, type PageQuery } from './repository.ts';

export type WithdrawalRow = typeof withdrawals.$inferSelect;

export async function insertWithdrawal(db: DbOrTx, values: typeof withdrawals.$inferInsert): Promise<WithdrawalRow> {
  const [row] = await db.insert(withdrawals).values(values).returning();
  return row!;
}

export async function findWithdrawal(db: DbOrTx, id: number): Promise<WithdrawalRow | undefined> {
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1);
  return row;
}

export interface WithdrawalFilter {
  userId?: number;
  type?: number;
  status?: number;
}

export async function listWithdrawals(db: DbOrTx, f: WithdrawalFilter, page: PageQuery): Promise<{ rows: WithdrawalRow[]; total: number }> {
  const conds: SQL[] = [];
  if (f.userId !== undefined) conds.push(eq(withdrawals.userId, f.userId));
  if (f.type !== undefined) conds.push(eq(withdrawals.type, f.type));
  if (f.status !== undefined) conds.push(eq(withdrawals.status, f.status));
  const where = conds.length ? and(...conds) : undefined;
  const rows = await db.select().from(withdrawals).where(where).orderBy(desc(withdrawals.id)).limit(page.limit).offset(offsetOf(page));
  const [count] = await db.select({ n: countAll }).from(withdrawals).where(where);
  return { rows, total: Number(count?.n ?? 0) };
}

/** Moves a withdrawal out of "pending review"; null when it was no longer pending, so a review happens once. */
export async function reviewWithdrawal(
  db: DbOrTx,
  id: number,
  review: { status: number; reviewedBy: number; txRef?: string; notes?: string },
): Promise<WithdrawalRow | null> {
  const [row] = await db
    .update(withdrawals)
    .set({ ...review, reviewedAt: new Date() })
    .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 0)))
    .returning();
  return row ?? null;
}
