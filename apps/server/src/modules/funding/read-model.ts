import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { deposits, withdrawals } from './schema.ts';

/** What funding publishes for other modules' screens (the back office), read-only. */

/** Deposits and withdrawals waiting for a staff review. */
export async function countWaitingReviews(db: DbOrTx): Promise<{ deposits: number; withdrawals: number }> {
  const [[dep], [wd]] = await Promise.all([
    db.select({ n: count() }).from(deposits).where(eq(deposits.status, 0)),
    db.select({ n: count() }).from(withdrawals).where(eq(withdrawals.status, 0)),
  ]);
  return { deposits: Number(dep?.n ?? 0), withdrawals: Number(wd?.n ?? 0) };
}

/** Finished deposits of some users, oldest first, with the USD credited (the partners module's CPA). */
export async function finishedDepositsOf(db: DbOrTx, userIds: number[]) {
  if (!userIds.length) return [];
  return db
    .select({ id: deposits.id, userId: deposits.userId, creditedUsd: deposits.creditedUsd })
    .from(deposits)
    .where(and(inArray(deposits.userId, userIds), eq(deposits.status, 1)))
    .orderBy(asc(deposits.id));
}
