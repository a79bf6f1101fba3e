import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { balanceAdjustments } from './schema.ts';
import { users } from '../auth/schema.ts';
import { identityVerifications } from '../identity/schema.ts';
import { ledgerAccounts, ledgerEntries } from '../ledger/schema.ts';
import { symbols } from '../market/schema.ts';
import { orders } from '../trading/schema.ts';

export type UserRow = typeof users.$inferSelect;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Users matching an email, mobile, uid or id, newest first. */
export async function searchUsers(db: DbOrTx, q: string, page: number, limit: number) {
  const term = q.trim();
  const conds: SQL[] = [];
  if (term) {
    conds.push(ilike(users.email, `%${escapeLike(term)}%`), ilike(users.mobile, `%${escapeLike(term)}%`), eq(users.uid, term));
    if (/^\d{1,9}$/.test(term)) conds.push(eq(users.id, Number(term)));
  }
  const where = conds.length ? or(...conds) : undefined;
  const [rows, [counted]] = await Promise.all([
    db.select().from(users).where(where).orderBy(desc(users.id)).limit(limit).offset((page - 1) * limit),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

export async function findUser(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function reviewStatusOf(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
  if (!userIds.length) return new Map();
  const rows = await db.select({ userId: identityVerifications.userId, status: identityVerifications.reviewStatus }).from(identityVerifications).where(inArray(identityVerifications.userId, userIds));
  return new Map(rows.map((r) => [r.userId, r.status]));
}

export async function setUserStatus(db: DbOrTx, id: number, status: number): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ status }).where(eq(users.id, id)).returning();
  return row;
}

/** Entries on the user's cash and locked accounts, newest first. */
export async function userLedgerEntries(db: DbOrTx, userId: number, page: number, limit: number) {
  const where = eq(ledgerAccounts.userId, userId);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ id: ledgerEntries.id, account: ledgerAccounts.kind, amount: ledgerEntries.amount, type: ledgerEntries.type, memo: ledgerEntries.memo, createdAt: ledgerEntries.createdAt })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(where)
      .orderBy(desc(ledgerEntries.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(ledgerEntries).innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId)).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

/** Orders of any status (or one), newest first, optionally of one user or symbol. */
export async function listOrders(db: DbOrTx, filter: { userId?: number; symbolId?: number; statuses?: number[] }, page: number, limit: number) {
  const conds: SQL[] = [];
  if (filter.userId) conds.push(eq(orders.userId, filter.userId));
  if (filter.symbolId) conds.push(eq(orders.symbolId, filter.symbolId));
  if (filter.statuses) conds.push(inArray(orders.status, filter.statuses));
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select({ order: orders, code: symbols.showCode, email: users.email, uid: users.uid })
      .from(orders)
      .leftJoin(symbols, eq(symbols.id, orders.symbolId))
      .leftJoin(users, eq(users.id, orders.userId))
      .where(where)
      .orderBy(desc(orders.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

/** Records the adjustment a client key names; false when this user already has one under that key. */
export async function claimAdjustmentKey(
  db: DbOrTx,
  row: { userId: number; key: string; amount: string; reason: string; staffId: number },
): Promise<boolean> {
  const inserted = await db.insert(balanceAdjustments).values(row).onConflictDoNothing().returning({ id: balanceAdjustments.id });
  return inserted.length > 0;
}

export async function findAdjustment(db: DbOrTx, userId: number, key: string) {
  const [row] = await db
    .select()
    .from(balanceAdjustments)
    .where(and(eq(balanceAdjustments.userId, userId), eq(balanceAdjustments.key, key)))
    .limit(1);
  return row;
}
