import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { areaCodes } from './schema.ts';
import { settings } from '../../platform/db/platform-schema.ts';

export async function getSettings(db: DbOrTx, keys: string[]): Promise<Map<string, string>> {
  const rows = await db.select().from(settings).where(inArray(settings.key, keys));
  return new Map(rows.map((r) => [r.key, r.value]));
}

export async function getSetting(db: DbOrTx, key: string): Promise<string | undefined> {
  return (await getSettings(db, [key])).get(key);
}

/** Inserts the setting unless it exists, and answers the stored value (the first writer wins). */
export async function ensureSetting(db: DbOrTx, key: string, value: string): Promise<string> {
  await db.insert(settings).values({ key, value }).onConflictDoNothing();
  return (await getSetting(db, key))!;
}

export async function listAreas(db: DbOrTx) {
  return db.select().from(areaCodes).orderBy(asc(areaCodes.name));
}

export async function findArea(db: DbOrTx, id: number) {
  const [row] = await db.select().from(areaCodes).where(eq(areaCodes.id, id)).limit(1);
  return row;
}
