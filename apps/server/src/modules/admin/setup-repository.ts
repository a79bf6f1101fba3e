import { asc, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { bankWires, depositNetworks, deposits, drawMethods, withdrawCurrencies, withdrawals } from '../funding/schema.ts';
import { categories, symbolLeverages, symbols } from '../market/schema.ts';
import { settings } from '../../platform/db/platform-schema.ts';
import { orders } from '../trading/schema.ts';

export type SymbolRow = typeof symbols.$inferSelect;
export type SymbolChanges = Partial<typeof symbols.$inferInsert>;

export const listSymbols = (db: DbOrTx) => db.select().from(symbols).orderBy(asc(symbols.sort), asc(symbols.id));

export async function findSymbol(db: DbOrTx, id: number, forUpdate = false): Promise<SymbolRow | undefined> {
  const q = db.select().from(symbols).where(eq(symbols.id, id)).limit(1);
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function leveragesBySymbol(db: DbOrTx): Promise<Map<number, number[]>> {
  const rows = await db.select().from(symbolLeverages).orderBy(asc(symbolLeverages.value));
  const out = new Map<number, number[]>();
  for (const r of rows) out.set(r.symbolId, [...(out.get(r.symbolId) ?? []), r.value]);
  return out;
}

export async function updateSymbol(db: DbOrTx, id: number, changes: SymbolChanges): Promise<void> {
  if (Object.keys(changes).length) await db.update(symbols).set(changes).where(eq(symbols.id, id));
}

export async function replaceLeverages(db: DbOrTx, symbolId: number, values: number[]): Promise<void> {
  await db.delete(symbolLeverages).where(eq(symbolLeverages.symbolId, symbolId));
  if (values.length) await db.insert(symbolLeverages).values(values.map((value) => ({ symbolId, value })));
}

export const listCategories = (db: DbOrTx) => db.select().from(categories).orderBy(asc(categories.sort), asc(categories.id));
export async function findCategory(db: DbOrTx, id: number) {
  const [row] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
  return row;
}
export async function saveCategory(db: DbOrTx, id: number | undefined, values: { key: string; sort: number }) {
  const [row] = id
    ? await db.update(categories).set(values).where(eq(categories.id, id)).returning()
    : await db.insert(categories).values(values).returning();
  return row;
}

export async function findOrder(db: DbOrTx, id: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row;
}

// ---------------------------------------------------------------- funding setup
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

export async function readSetting(db: DbOrTx, key: string): Promise<string | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  return row?.value;
}

export async function writeSetting(db: DbOrTx, key: string, value: string): Promise<void> {
  await db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
}
