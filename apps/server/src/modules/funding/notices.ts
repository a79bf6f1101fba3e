import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { DepositStatus } from '@tp/contract/constants';
import type { Notice } from '@tp/contract/schemas/trading';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { depositNotice } from './deposit-service.ts';
import { countAll } from './repository.ts';
import { deposits, withdrawals } from './schema.ts';
import { WithdrawalStatus, withdrawalNotice } from './withdrawal-service.ts';

const REVIEWED_DEPOSITS: number[] = [DepositStatus.FINISHED, DepositStatus.REJECTED];
const REVIEWED_WITHDRAWALS: number[] = [WithdrawalStatus.PAID, WithdrawalStatus.REJECTED];

/** The user's newest `limit` reviewed deposits and withdrawals as notices, and how many there are. */
async function fundingNotices(db: DbOrTx, userId: number, limit: number): Promise<{ rows: Notice[]; total: number }> {
  const depositWhere = and(eq(deposits.userId, userId), inArray(deposits.status, REVIEWED_DEPOSITS), isNotNull(deposits.reviewedAt));
  const withdrawalWhere = and(
    eq(withdrawals.userId, userId),
    inArray(withdrawals.status, REVIEWED_WITHDRAWALS),
    isNotNull(withdrawals.reviewedAt),
  );
  const [depositRows, [depositCount], withdrawalRows, [withdrawalCount]] = await Promise.all([
    db.select().from(deposits).where(depositWhere).orderBy(desc(deposits.reviewedAt), desc(deposits.id)).limit(limit),
    db.select({ n: countAll }).from(deposits).where(depositWhere),
    db.select().from(withdrawals).where(withdrawalWhere).orderBy(desc(withdrawals.reviewedAt), desc(withdrawals.id)).limit(limit),
    db.select({ n: countAll }).from(withdrawals).where(withdrawalWhere),
  ]);
  const rows = [...depositRows.map(depositNotice), ...withdrawalRows.map(withdrawalNotice)].filter((n): n is Notice => n !== null);
  return { rows, total: Number(depositCount?.n ?? 0) + Number(withdrawalCount?.n ?? 0) };
}

/** Reviewed deposits and withdrawals in the trader's notifications. */
export function registerFundingNotices(ctx: AppContext): void {
  ctx.services.trading.accountNotices.addSource((userId, limit) => fundingNotices(ctx.db, userId, limit));
}
