import { OrderStatus } from '@tp/contract/constants';
import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { orders } from '../db/schema.ts';

/**
 * Real closed orders of some users completed at or after `since`, in (completed_at, id) order after
 * the key `after` (a partial close is its own closed order): what the partners module accrues
 * commissions on; a trade staff reversed is left out (it pays nothing). Read-only.
 */
export async function closedOrdersOf(db: DbOrTx, userIds: number[], since: Date, after: { at: Date; id: number } | null, limit: number) {
  if (!userIds.length) return [];
  const from = after ?? { at: since, id: 0 };
  return db
    .select({
      id: orders.id,
      userId: orders.userId,
      symbolId: orders.symbolId,
      quantity: orders.quantity,
      fee: orders.fee,
      completedAt: orders.completedAt,
    })
    .from(orders)
    .where(
      and(
        inArray(orders.userId, userIds),
        eq(orders.status, OrderStatus.CLOSED),
        eq(orders.isDemo, false),
        isNull(orders.reversedAt),
        gte(orders.completedAt, since),
        or(gt(orders.completedAt, from.at), and(eq(orders.completedAt, from.at), gt(orders.id, from.id))),
      ),
    )
    .orderBy(asc(orders.completedAt), asc(orders.id))
    .limit(limit)
    .then((rows) => rows.map((r) => ({ ...r, completedAt: r.completedAt ?? new Date(0) })));
}

/**
 * Real closed orders of some users that staff reversed at or after `since`, in (reversed_at, id) order
 * after the key `after` (at most `limit`): the partners module claws back the commissions paid on
 * them. Read-only.
 */
export async function reversedOrdersOf(db: DbOrTx, userIds: number[], since: Date, after: { at: Date; id: number } | null, limit: number) {
  if (!userIds.length) return [];
  const from = after ?? { at: since, id: 0 };
  const rows = await db
    .select({ id: orders.id, userId: orders.userId, reversedAt: orders.reversedAt })
    .from(orders)
    .where(
      and(
        inArray(orders.userId, userIds),
        eq(orders.isDemo, false),
        isNotNull(orders.reversedAt),
        gte(orders.reversedAt, since),
        or(gt(orders.reversedAt, from.at), and(eq(orders.reversedAt, from.at), gt(orders.id, from.id))),
      ),
    )
    .orderBy(asc(orders.reversedAt), asc(orders.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, reversedAt: r.reversedAt ?? since }));
}

/** Lots closed by each of some users (real orders; a trade staff reversed is left out), for the partner area. */
export async function closedLotsOf(db: DbOrTx, userIds: number[]): Promise<Map<number, string>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .select({ userId: orders.userId, lots: sql<string>`coalesce(sum(${orders.quantity}), 0)::text` })
    .from(orders)
    .where(and(inArray(orders.userId, userIds), eq(orders.status, OrderStatus.CLOSED), eq(orders.isDemo, false), isNull(orders.reversedAt)))
    .groupBy(orders.userId);
  return new Map(rows.map((r) => [r.userId, r.lots]));
}
