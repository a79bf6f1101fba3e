import { and, count, eq, gte, inArray, isNull, sql, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../auth/schema.ts';
import { deposits, withdrawals } from '../funding/schema.ts';
import { identityVerifications } from '../identity/schema.ts';
import { ledgerAccounts, ledgerEntries } from '../ledger/schema.ts';
import { orders, riskEvents } from '../trading/schema.ts';

const startOfTodayUtc = () => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  return d;
};

export async function userCounts(db: DbOrTx) {
  const [[byKind], [verified]] = await Promise.all([
    db
      .select({
        real: sql<number>`count(*) filter (where ${users.isDemo} = false)::int`,
        demo: sql<number>`count(*) filter (where ${users.isDemo} = true)::int`,
      })
      .from(users),
    db.select({ n: count() }).from(identityVerifications).where(eq(identityVerifications.reviewStatus, 2)),
  ]);
  return { real: Number(byKind?.real ?? 0), demo: Number(byKind?.demo ?? 0), verified: Number(verified?.n ?? 0) };
}

export async function waitingReviews(db: DbOrTx) {
  const [[dep], [wd]] = await Promise.all([
    db.select({ n: count() }).from(deposits).where(eq(deposits.status, 0)),
    db.select({ n: count() }).from(withdrawals).where(eq(withdrawals.status, 0)),
  ]);
  return { deposits: Number(dep?.n ?? 0), withdrawals: Number(wd?.n ?? 0) };
}

/** Real open positions per symbol and side. */
export function openLotsBySymbol(db: DbOrTx) {
  return db
    .select({ symbolId: orders.symbolId, orderType: orders.orderType, positions: count(), lots: sum(orders.quantity), units: sql<string>`sum(${orders.quantity} * ${orders.contractSize})::text` })
    .from(orders)
    .where(and(eq(orders.status, 1), eq(orders.isDemo, false)))
    .groupBy(orders.symbolId, orders.orderType);
}

/** Sum of today's real-money entries on the given house accounts. */
export async function houseTotalsToday(db: DbOrTx, kinds: string[]) {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, total: sum(ledgerEntries.amount) })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(and(isNull(ledgerAccounts.userId), eq(ledgerAccounts.isDemo, false), inArray(ledgerAccounts.kind, kinds), gte(ledgerEntries.createdAt, startOfTodayUtc())))
    .groupBy(ledgerAccounts.kind);
  return new Map(rows.map((r) => [r.kind, r.total ?? '0']));
}

export async function riskEventsToday(db: DbOrTx) {
  const rows = await db
    .select({ kind: riskEvents.kind, n: count() })
    .from(riskEvents)
    .where(gte(riskEvents.createdAt, startOfTodayUtc()))
    .groupBy(riskEvents.kind);
  return new Map(rows.map((r) => [r.kind, Number(r.n)]));
}
