import { and, asc, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { drawMethods, withdrawCurrencies } from './schema.ts';
import { countAll } from './repository.ts';

export type WithdrawCurrencyRow = typeof withdrawCurrencies.$inferSelect;
export type DrawMethodRow = typeof drawMethods.$inferSelect;

export async function enabledWithdrawCurrencies(db: DbOrTx, type?: number): Promise<WithdrawCurrencyRow[]> {
  const conds: SQL[] = [eq(withdrawCurrencies.enabled, true)];
  if (type !== undefined) conds.push(eq(withdrawCurrencies.type, type));
  return db
    .select()
    .from(withdrawCurrencies)
    .where(and(...conds))
    .orderBy(asc(withdrawCurrencies.id));
}

export async function findWithdrawCurrency(db: DbOrTx, id: number): Promise<WithdrawCurrencyRow | undefined> {
  const [row] = await db.select().from(withdrawCurrencies).where(eq(withdrawCurrencies.id, id)).limit(1);
  return row;
}

export async function withdrawCurrenciesById(db: DbOrTx): Promise<Map<number, WithdrawCurrencyRow>> {
  const rows = await db.select().from(withdrawCurrencies);
  return new Map(rows.map((r) => [r.id, r]));
}

/** The user's bound receiving accounts that are not deleted, newest first. */
export async function activeDrawMethods(
  db: DbOrTx,
  userId: number,
  filter: { type?: number; drawCurrencyId?: number } = {},
): Promise<DrawMethodRow[]> {
  const conds: SQL[] = [eq(drawMethods.userId, userId), isNull(drawMethods.deletedAt)];
  if (filter.type !== undefined) conds.push(eq(drawMethods.type, filter.type));
  if (filter.drawCurrencyId !== undefined) conds.push(eq(drawMethods.drawCurrencyId, filter.drawCurrencyId));
  return db
    .select()
    .from(drawMethods)
    .where(and(...conds))
    .orderBy(desc(drawMethods.id));
}

export async function countActiveDrawMethods(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: countAll })
    .from(drawMethods)
    .where(and(eq(drawMethods.userId, userId), isNull(drawMethods.deletedAt)));
  return Number(row?.n ?? 0);
}

/** One of the user's own methods (deleted ones included, for the records that name them). */
export async function findOwnDrawMethod(db: DbOrTx, userId: number, id: number): Promise<DrawMethodRow | undefined> {
  const [row] = await db
    .select()
    .from(drawMethods)
    .where(and(eq(drawMethods.id, id), eq(drawMethods.userId, userId)))
    .limit(1);
  return row;
}

export async function insertDrawMethod(db: DbOrTx, values: typeof drawMethods.$inferInsert): Promise<DrawMethodRow> {
  const [row] = await db.insert(drawMethods).values(values).returning();
  return row!;
}

/** Soft delete, only of the owner's undeleted method; false when there was none. */
export async function softDeleteDrawMethod(db: DbOrTx, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .update(drawMethods)
    .set({ deletedAt: new Date() })
    .where(and(eq(drawMethods.id, id), eq(drawMethods.userId, userId), isNull(drawMethods.deletedAt)))
    .returning({ id: drawMethods.id });
  return rows.length > 0;
}

export async function drawMethodsByIds(db: DbOrTx, ids: number[]): Promise<Map<number, DrawMethodRow>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select()
    .from(drawMethods)
    .where(inArray(drawMethods.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}
