import { type SQL, and, asc, count, desc, eq, gte, inArray, isNull, lt, notInArray, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { ledgerAccounts, ledgerEntries } from './schema.ts';

/** What the ledger publishes for other modules' screens (the back office), read-only. */

/** Sum of the entries on the given house accounts (real money unless `isDemo`) since a time, by account kind. */
export async function houseTotalsSince(db: DbOrTx, kinds: string[], since: Date, isDemo = false): Promise<Map<string, string>> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, total: sum(ledgerEntries.amount) })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(
      and(
        isNull(ledgerAccounts.userId),
        eq(ledgerAccounts.isDemo, isDemo),
        inArray(ledgerAccounts.kind, kinds),
        gte(ledgerEntries.createdAt, since),
      ),
    )
    .groupBy(ledgerAccounts.kind);
  return new Map(rows.map((r) => [r.kind, r.total ?? '0']));
}

/** The accounts of a user's trading money (a partner's commission payable is not part of it). */
const TRADING_KINDS = ['cash', 'locked'];

/**
 * The entry types that make a client's trading result: closed positions' profit, trade fees and swaps
 * (not write-offs), and staff reversals of closed trades (which take a profit or loss and fee back).
 */
const TRADING_RESULT_TYPES = ['profit', 'trade_fee', 'swap', 'trade_reversal'];

/**
 * Each real client's trading result since a time: the sum of the profit, trade fee and swap entries on
 * their cash account (what their trading won or lost, costs included; a negative balance written off is
 * not counted back to them). Users without such entries are absent.
 */
export async function tradingResultsSince(db: DbOrTx, since: Date): Promise<Map<number, string>> {
  const rows = await db
    .select({ userId: ledgerAccounts.userId, total: sum(ledgerEntries.amount) })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(
      and(
        eq(ledgerAccounts.kind, 'cash'),
        eq(ledgerAccounts.isDemo, false),
        inArray(ledgerEntries.type, TRADING_RESULT_TYPES),
        gte(ledgerEntries.createdAt, since),
      ),
    )
    .groupBy(ledgerAccounts.userId);
  return new Map(rows.filter((r) => r.userId !== null).map((r) => [r.userId!, r.total ?? '0']));
}

/** Entries on the user's cash and locked accounts, newest first. */
export function userLedgerEntries(db: DbOrTx, userId: number, page: number, limit: number) {
  return pagedEntries(db, and(eq(ledgerAccounts.userId, userId), inArray(ledgerAccounts.kind, TRADING_KINDS)), page, limit);
}

/** One page of the entries of the accounts `where` picks, newest first, with their account's kind, and how many there are. */
export async function pagedEntries(db: DbOrTx, where: SQL | undefined, page: number, limit: number) {
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: ledgerEntries.id,
        account: ledgerAccounts.kind,
        amount: ledgerEntries.amount,
        type: ledgerEntries.type,
        memo: ledgerEntries.memo,
        createdAt: ledgerEntries.createdAt,
      })
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

/**
 * A user's money (cash and locked accounts together) over [from, to): the total before `from` and
 * before `to`, the entries in between oldest first (at most `limit`, leaving out `transferTypes`, the
 * moves between the two accounts that net to zero), and the in-range sums by entry type.
 */
export async function userStatementEntries(db: DbOrTx, userId: number, from: Date, to: Date, transferTypes: string[], limit: number) {
  const mine = and(eq(ledgerAccounts.userId, userId), inArray(ledgerAccounts.kind, TRADING_KINDS));
  const inRange = and(
    mine,
    gte(ledgerEntries.createdAt, from),
    lt(ledgerEntries.createdAt, to),
    notInArray(ledgerEntries.type, transferTypes),
  );
  const totalBefore = (at: Date) =>
    db
      .select({ total: sum(ledgerEntries.amount) })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(and(mine, lt(ledgerEntries.createdAt, at)));
  const [[opening], [closing], rows, byType] = await Promise.all([
    totalBefore(from),
    totalBefore(to),
    db
      .select({
        id: ledgerEntries.id,
        amount: ledgerEntries.amount,
        type: ledgerEntries.type,
        memo: ledgerEntries.memo,
        createdAt: ledgerEntries.createdAt,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(inRange)
      .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id))
      .limit(limit),
    db
      .select({ type: ledgerEntries.type, total: sum(ledgerEntries.amount), n: count() })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(inRange)
      .groupBy(ledgerEntries.type),
  ]);
  return {
    opening: opening?.total ?? '0',
    closing: closing?.total ?? '0',
    rows,
    totals: byType.map((r) => ({ type: r.type, total: r.total ?? '0', count: Number(r.n) })),
  };
}

/** The balance of one of a user's accounts (e.g. a partner's 'commission'), 0 when it was never opened. */
export async function userAccountBalance(db: DbOrTx, userId: number, kind: string): Promise<string> {
  const [row] = await db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.kind, kind)))
    .limit(1);
  return row?.balance ?? '0';
}
