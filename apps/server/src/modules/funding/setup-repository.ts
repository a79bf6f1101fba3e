import { asc, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { bankWires, depositNetworks, deposits, drawMethods, withdrawCurrencies, withdrawals } from './schema.ts';

/** The back office's setup of deposit networks, bank wires and withdraw currencies (the admin module calls these through index.ts). */

export const fundingTables = { depositNetworks, bankWires, withdrawCurrencies } as const;
export type FundingTable = keyof typeof fundingTables;

export const listRows = (db: DbOrTx, table: FundingTable) => {
  const t = fundingTables[table];
  return db.select().from(t).orderBy(asc(t.id));
};

export async function findRow(db: DbOrTx, table: FundingTable, id: number) {
  const t = fundingTables[table];
  const [row] = await db.select().from(t).where(eq(t.id, id)).limit(1);
  return row;
}

export async function saveRow(db: DbOrTx, table: FundingTable, id: number | undefined, values: Record<string, unknown>) {
  const t = fundingTables[table];
  const [row] = id
    ? await db.update(t).set(values).where(eq(t.id, id)).returning()
    : await db.insert(t).values(values as never).returning();
  return row;
}

export async function deleteRow(db: DbOrTx, table: FundingTable, id: number): Promise<void> {
  const t = fundingTables[table];
  await db.delete(t).where(eq(t.id, id));
}

/** Rows that deposits, withdrawals or receiving accounts still refer to are disabled, not deleted. */
export async function isReferenced(db: DbOrTx, table: FundingTable, id: number): Promise<boolean> {
  const n = async (q: Promise<{ n: number }[]>) => Number((await q)[0]?.n ?? 0);
  if (table === 'depositNetworks') return (await n(db.select({ n: count() }).from(deposits).where(eq(deposits.chargeId, id)))) > 0;
  if (table === 'bankWires') return (await n(db.select({ n: count() }).from(deposits).where(eq(deposits.wireId, id)))) > 0;
  const [methods, draws] = await Promise.all([
    n(db.select({ n: count() }).from(drawMethods).where(eq(drawMethods.drawCurrencyId, id))),
    n(db.select({ n: count() }).from(withdrawals).where(eq(withdrawals.drawCurrencyId, id))),
  ]);
  return methods + draws > 0;
}

/** USD per unit of each currency staff set for deposits (networks and wires), by upper-case code. */
export async function depositRatesByCurrency(db: DbOrTx): Promise<{ code: string; usdPerUnit: string }[]> {
  const networks = await db.select({ code: depositNetworks.currencyCode, usdPerUnit: depositNetworks.usdPerUnit }).from(depositNetworks);
  const wires = await db.select({ code: bankWires.currency, usdPerUnit: bankWires.usdPerUnit }).from(bankWires);
  return [...networks, ...wires].map((r) => ({ code: r.code.toUpperCase(), usdPerUnit: r.usdPerUnit }));
}

/** Units per USD of each withdraw currency, by upper-case code. */
export async function withdrawRatesByCurrency(db: DbOrTx): Promise<{ code: string; unitsPerUsd: string }[]> {
  const rows = await db.select({ code: withdrawCurrencies.code, unitsPerUsd: withdrawCurrencies.unitsPerUsd }).from(withdrawCurrencies);
  return rows.map((r) => ({ code: r.code.toUpperCase(), unitsPerUsd: r.unitsPerUsd }));
}
