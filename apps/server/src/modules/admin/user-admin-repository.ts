import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { balanceAdjustments } from './schema.ts';

/** Records the adjustment a client key names; false when this user already has one under that key. */
export async function claimAdjustmentKey(
  db: DbOrTx,
  row: { userId: number; key: string; amount: string; reason: string; staffId: number },
): Promise<boolean> {
  const inserted = await db.insert(balanceAdjustments).values(row).onConflictDoNothing().returning({ id: balanceAdjustments.id });
  return inserted.length > 0;
}

export async function findAdjustment(db: DbOrTx, userId: number, key: string) {
  const [row] = await db
    .select()
    .from(balanceAdjustments)
    .where(and(eq(balanceAdjustments.userId, userId), eq(balanceAdjustments.key, key)))
    .limit(1);
  return row;
}
