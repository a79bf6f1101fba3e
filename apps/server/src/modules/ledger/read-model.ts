import { and, eq, gte, inArray, isNull, sum } from 'drizzle-orm';
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
