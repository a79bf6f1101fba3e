import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { uploads } from './schema.ts';
import { settings } from '../../platform/db/platform-schema.ts';

export type UploadRow = typeof uploads.$inferSelect;

export async function insertUpload(
  db: DbOrTx,
  row: { userId: number; key: string; mime: string; size: number; sha256: string },
): Promise<void> {
  await db.insert(uploads).values(row);
}

export async function findUpload(db: DbOrTx, key: string): Promise<UploadRow | undefined> {
  const [row] = await db.select().from(uploads).where(eq(uploads.key, key)).limit(1);
  return row;
}

/** A server secret kept in settings, created by whichever server asks first, so every server signs alike. */
export async function ensureSecret(db: DbOrTx, key: string, fresh: string): Promise<string> {
  await db.insert(settings).values({ key, value: fresh }).onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, key)).limit(1);
  return row!.value;
}

/** Whether `key` is a stored upload, of `ownerId` when given. */
export async function uploadExists(db: DbOrTx, key: string, ownerId: number | null): Promise<boolean> {
  const where = ownerId === null ? eq(uploads.key, key) : and(eq(uploads.key, key), eq(uploads.userId, ownerId));
  const [row] = await db.select({ id: uploads.id }).from(uploads).where(where).limit(1);
  return !!row;
}

/** For each of `keys` with a content hash, the keys of every upload with the same hash (itself included). */
export async function keysWithSameContent(db: DbOrTx, keys: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!keys.length) return out;
  const own = await db
    .select({ key: uploads.key, sha256: uploads.sha256 })
    .from(uploads)
    .where(and(inArray(uploads.key, keys), isNotNull(uploads.sha256)));
  const hashes = [...new Set(own.map((r) => r.sha256!))];
  if (!hashes.length) return out;
  const same = await db.select({ key: uploads.key, sha256: uploads.sha256 }).from(uploads).where(inArray(uploads.sha256, hashes));
  const byHash = new Map<string, string[]>();
  for (const r of same) byHash.set(r.sha256!, [...(byHash.get(r.sha256!) ?? []), r.key]);
  for (const r of own) out.set(r.key, byHash.get(r.sha256!) ?? [r.key]);
  return out;
}
