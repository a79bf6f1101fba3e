import { and, count, eq, gte, sql, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { orders, riskEvents } from './schema.ts';

/** What trading publishes for other modules' screens (the back office), read-only. */

/** Real open positions per symbol and side. */
export function openLotsBySymbol(db: DbOrTx) {
  return db
    .select({ symbolId: orders.symbolId, orderType: orders.orderType, positions: count(), lots: sum(orders.quantity), units: sql<string>`sum(${orders.quantity} * ${orders.contractSize})::text` })
    .from(orders)
    .where(and(eq(orders.status, 1), eq(orders.isDemo, false)))
    .groupBy(orders.symbolId, orders.orderType);
}

/** Risk events (margin calls, stop-outs) since a time, by kind. */
export async function countRiskEventsSince(db: DbOrTx, since: Date): Promise<Map<string, number>> {
  const rows = await db.select({ kind: riskEvents.kind, n: count() }).from(riskEvents).where(gte(riskEvents.createdAt, since)).groupBy(riskEvents.kind);
  return new Map(rows.map((r) => [r.kind, Number(r.n)]));
}
