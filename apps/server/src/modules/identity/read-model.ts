import { count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { identityVerifications } from './schema.ts';

/** What identity publishes for other modules' screens (the back office), read-only. */

export async function countVerifiedUsers(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(identityVerifications).where(eq(identityVerifications.reviewStatus, 2));
  return Number(row?.n ?? 0);
}
