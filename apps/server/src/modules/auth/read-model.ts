import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from './schema.ts';

/** What auth publishes of its users for other modules' screens (the back office), read-only. */

export async function countUsersByKind(db: DbOrTx): Promise<{ real: number; demo: number }> {
  const [row] = await db
    .select({
      real: sql<number>`count(*) filter (where ${users.isDemo} = false)::int`,
      demo: sql<number>`count(*) filter (where ${users.isDemo} = true)::int`,
    })
    .from(users);
  return { real: Number(row?.real ?? 0), demo: Number(row?.demo ?? 0) };
}
