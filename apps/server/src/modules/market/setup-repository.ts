import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { categories, symbolLeverages, symbols } from './schema.ts';

/** The back office's setup of symbols, leverages and categories (the admin module calls these through index.ts). */

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
