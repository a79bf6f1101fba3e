import { and, count, desc, eq, gte, inArray, isNull, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { ledgerAccounts, ledgerEntries } from './schema.ts';

/** What the ledger publishes for other modules' screens (the back office), read-only. */

/** Sum of the real-money entries on the given house accounts since a time, by account kind. */
export async function houseTotalsSince(db: DbOrTx, kinds: string[], since: Date): Promise<Map<string, string>> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, total: sum(ledgerEntries.amount) })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(and(isNull(ledgerAccounts.userId), eq(ledgerAccounts.isDemo, false), inArray(ledgerAccounts.kind, kinds), gte(ledgerEntries.createdAt, since)))
    .groupBy(ledgerAccounts.kind);
  return new Map(rows.map((r) => [r.kind, r.total ?? '0']));
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
