import { type AnyColumn, and, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { settings } from '../../platform/db/platform-schema.ts';
import { pushPreferences, pushSubscriptions } from './schema.ts';

export type SubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** A setting made once (the first caller's value wins, also across servers sharing the database). */
export async function ensureSetting(db: DbOrTx, key: string, value: string): Promise<string> {
  await db.insert(settings).values({ key, value }).onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  return row!.value;
}

export async function countSubscriptions(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  return row?.n ?? 0;
}

export async function findSubscription(db: DbOrTx, endpoint: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)).limit(1);
  return row;
}

/** Adds the device, or refreshes its keys (and owner: a shared browser's new trader) when the endpoint is known. */
export async function upsertSubscription(
  db: DbOrTx,
  row: { userId: number; endpoint: string; p256dh: string; auth: string },
): Promise<void> {
  await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: row.userId, p256dh: row.p256dh, auth: row.auth, updatedAt: sql`now()` },
    });
}

export async function deleteSubscription(db: DbOrTx, userId: number, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

/** A device the push service no longer knows (404, 410): forgotten, by id so a re-subscription since is kept. */
export async function deleteSubscriptionById(db: DbOrTx, id: number, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.endpoint, endpoint)));
}

/**
 * `column = any($1)` with the ids as one array parameter: one statement text whatever the number of
 * ids (an IN list would be a new text, and a new prepared statement, for each count).
 */
const anyOf = (column: AnyColumn, ids: number[]) => sql`${column} = any(${sql.param(ids)}::int[])`;

/** The devices of several users, in one read (the notices of a burst of closes are looked up together). */
export async function subscriptionsOfUsers(db: DbOrTx, userIds: number[]): Promise<SubscriptionRow[]> {
  if (!userIds.length) return [];
  return db.select().from(pushSubscriptions).where(anyOf(pushSubscriptions.userId, userIds));
}

export interface PushPreferences {
  offEvents: string[];
  lang: string | null;
}

/** The push preferences of several users, in one read, by user. */
export async function preferencesOfUsers(db: DbOrTx, userIds: number[]): Promise<Map<number, PushPreferences>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .select({ userId: pushPreferences.userId, offEvents: pushPreferences.offEvents, lang: pushPreferences.lang })
    .from(pushPreferences)
    .where(anyOf(pushPreferences.userId, userIds));
  return new Map(rows.map((r) => [r.userId, { offEvents: r.offEvents, lang: r.lang }]));
}

export async function preferencesOf(db: DbOrTx, userId: number): Promise<PushPreferences | undefined> {
  return (await preferencesOfUsers(db, [userId])).get(userId);
}

export async function savePreferences(db: DbOrTx, userId: number, change: { offEvents?: string[]; lang?: string }): Promise<void> {
  await db
    .insert(pushPreferences)
    .values({ userId, offEvents: change.offEvents ?? [], lang: change.lang ?? null })
    .onConflictDoUpdate({ target: pushPreferences.userId, set: { ...change, updatedAt: sql`now()` } });
}
