import { count, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { identityVerifications } from './schema.ts';

/** What identity publishes for other modules' screens (the back office), read-only. */

export async function countVerifiedUsers(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(identityVerifications).where(eq(identityVerifications.reviewStatus, 2));
  return Number(row?.n ?? 0);
}

/** The identity review status of each of some users, by id (users who never applied are absent). */
export async function reviewStatusOf(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
  if (!userIds.length) return new Map();
  const rows = await db.select({ userId: identityVerifications.userId, status: identityVerifications.reviewStatus }).from(identityVerifications).where(inArray(identityVerifications.userId, userIds));
  return new Map(rows.map((r) => [r.userId, r.status]));
}
