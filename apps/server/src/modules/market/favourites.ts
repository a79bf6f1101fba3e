import { and, asc, count, eq } from 'drizzle-orm';
import { MAX_FAVOURITES } from '@tp/contract/schemas/market';
import type { DbOrTx } from '../../platform/db/client.ts';
import { favourites } from './schema.ts';
import { fail } from '../../http/errors.ts';

/** A trader's starred symbols: ids oldest first. */
export async function listFavourites(db: DbOrTx, userId: number): Promise<number[]> {
  const rows = await db
    .select({ symbolId: favourites.symbolId })
    .from(favourites)
    .where(eq(favourites.userId, userId))
    .orderBy(asc(favourites.createdAt), asc(favourites.symbolId));
  return rows.map((r) => r.symbolId);
}

/** Stars a symbol; starring one twice changes nothing, and a full list refuses new ones. */
export async function addFavourite(db: DbOrTx, userId: number, symbolId: number): Promise<number[]> {
  const [row] = await db.select({ n: count() }).from(favourites).where(eq(favourites.userId, userId));
  const already = await db
    .select({ symbolId: favourites.symbolId })
    .from(favourites)
    .where(and(eq(favourites.userId, userId), eq(favourites.symbolId, symbolId)));
  if (already.length === 0) {
    if ((row?.n ?? 0) >= MAX_FAVOURITES) throw fail('favourites_full', { max: MAX_FAVOURITES });
    await db.insert(favourites).values({ userId, symbolId }).onConflictDoNothing();
  }
  return listFavourites(db, userId);
}

export async function removeFavourite(db: DbOrTx, userId: number, symbolId: number): Promise<number[]> {
  await db.delete(favourites).where(and(eq(favourites.userId, userId), eq(favourites.symbolId, symbolId)));
  return listFavourites(db, userId);
}
