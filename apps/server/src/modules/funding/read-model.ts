import { count, eq } from 'drizzle-orm';
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
