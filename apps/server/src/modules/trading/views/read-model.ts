import { OrderStatus } from '@tp/contract/constants';
import { and, count, desc, eq, gte, inArray, type SQL, sql, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { orders, riskEvents } from '../db/schema.ts';

/** What trading publishes for other modules' screens (the back office), read-only. */

/** Real open positions per symbol and side. */
export function openLotsBySymbol(db: DbOrTx) {
  return db
    .select({
      symbolId: orders.symbolId,
      orderType: orders.orderType,
      positions: count(),
      lots: sum(orders.quantity),
      units: sql<string>`sum(${orders.quantity} * ${orders.contractSize})::text`,
    })
    .from(orders)
    .where(and(eq(orders.status, OrderStatus.OPEN), eq(orders.isDemo, false)))
    .groupBy(orders.symbolId, orders.orderType);
}

/** Every open position of real or demo accounts (the dealer's desk on a server that does not run the engine). */
export function openPositionsOf(db: DbOrTx, isDemo: boolean): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.status, OrderStatus.OPEN), eq(orders.isDemo, isDemo)));
}

/** Risk events (margin calls, stop-outs) since a time, by kind. */
export async function countRiskEventsSince(db: DbOrTx, since: Date): Promise<Map<string, number>> {
  const rows = await db
    .select({ kind: riskEvents.kind, n: count() })
    .from(riskEvents)
    .where(gte(riskEvents.createdAt, since))
    .groupBy(riskEvents.kind);
  return new Map(rows.map((r) => [r.kind, Number(r.n)]));
}

export type OrderRow = typeof orders.$inferSelect;

/** One client's closed trades since a time: how many, their profit, how long they were held, the quick wins. */
export interface ClosedFlow {
  userId: number;
  trades: number;
  profit: string;
  avgHoldSeconds: number;
  quickWins: number;
}

/**
 * Per client (real or demo accounts), the positions closed since `since`: their count and profit (before
 * fees and swaps), the average seconds from open to close, and how many closed in profit within
 * `quickSeconds` of opening (the dealer's desk's flow quality). Read on a staff member's request only.
 */
export async function closedFlowSince(db: DbOrTx, isDemo: boolean, since: Date, quickSeconds: number): Promise<ClosedFlow[]> {
  const held = sql`extract(epoch from (${orders.completedAt} - ${orders.openedAt}))`;
  const rows = await db
    .select({
      userId: orders.userId,
      trades: count(),
      profit: sql<string>`coalesce(sum(${orders.profit}), 0)::text`,
      // Whole seconds, rounded by the database: a duration, never a float in the server.
      avgHold: sql<string>`coalesce(round(avg(${held})), 0)::bigint::text`,
      quickWins: sql<string>`count(*) filter (where ${held} <= ${quickSeconds} and ${orders.profit} > 0)`,
    })
    .from(orders)
    .where(
      and(
        eq(orders.status, OrderStatus.CLOSED),
        eq(orders.isDemo, isDemo),
        gte(orders.completedAt, since),
        sql`${orders.openedAt} is not null`,
      ),
    )
    .groupBy(orders.userId);
  return rows.map((r) => ({
    userId: r.userId,
    trades: Number(r.trades),
    profit: r.profit,
    avgHoldSeconds: Number(r.avgHold),
    quickWins: Number(r.quickWins),
  }));
}

/** The real clients who closed a position since a time. */
export async function realTradersSince(db: DbOrTx, since: Date): Promise<number[]> {
  const rows = await db
    .selectDistinct({ userId: orders.userId })
    .from(orders)
    .where(and(eq(orders.status, OrderStatus.CLOSED), eq(orders.isDemo, false), gte(orders.completedAt, since)));
  return rows.map((r) => r.userId);
}

/** Each user's last margin-call event (when their current call began, if one is in force). */
export async function lastMarginCalls(db: DbOrTx, userIds: number[]): Promise<Map<number, Date>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .select({ userId: riskEvents.userId, at: sql<Date>`max(${riskEvents.createdAt})`.mapWith(riskEvents.createdAt) })
    .from(riskEvents)
    .where(and(inArray(riskEvents.userId, userIds), eq(riskEvents.kind, 'margin_call')))
    .groupBy(riskEvents.userId);
  return new Map(rows.map((r) => [r.userId, r.at]));
}

/** Orders of any status (or one), newest first, optionally of one user or symbol (the back office's order list). */
export async function listOrders(
  db: DbOrTx,
  filter: { userId?: number; symbolId?: number; statuses?: number[] },
  page: number,
  limit: number,
) {
  const conds: SQL[] = [];
  if (filter.userId) conds.push(eq(orders.userId, filter.userId));
  if (filter.symbolId) conds.push(eq(orders.symbolId, filter.symbolId));
  if (filter.statuses) conds.push(inArray(orders.status, filter.statuses));
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

/** One order of any user and status. */
export async function findOrder(db: DbOrTx, id: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row;
}

/** One trader's real closed orders: figures since a time, and over all time. */
export interface ClosedOrderFigures {
  userId: number;
  profit: string;
  margin: string;
  trades: number;
  wins: number;
  /** Most used leverage (the higher on a tie) and most traded symbol (the lower id on a tie), since the time. */
  multiple: number;
  symbolId: number;
  totalProfit: string;
  totalMargin: string;
  totalTrades: number;
}

/** Figures of every trader with a real order closed since `since` (the ranking reads these). One grouped pass over closed orders. */
export async function closedOrderFiguresSince(db: DbOrTx, since: Date): Promise<ClosedOrderFigures[]> {
  const inWindow = sql`o.completed_at >= ${since.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    select o.user_id,
           sum(o.fact_profits) filter (where ${inWindow}) as profit,
           sum(o.caution_money) filter (where ${inWindow}) as margin,
           count(*) filter (where ${inWindow}) as trades,
           count(*) filter (where ${inWindow} and o.fact_profits > 0) as wins,
           mode() within group (order by o.multiple desc) filter (where ${inWindow}) as multiple,
           mode() within group (order by o.symbol_id asc) filter (where ${inWindow}) as symbol_id,
           sum(o.fact_profits) as total_profit, sum(o.caution_money) as total_margin, count(*) as total_trades
    from orders o
    where o.status = ${OrderStatus.CLOSED} and not o.is_demo
    group by o.user_id
    having count(*) filter (where ${inWindow}) > 0
  `);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({
    userId: Number(r.user_id),
    profit: String(r.profit),
    margin: String(r.margin),
    trades: Number(r.trades),
    wins: Number(r.wins),
    multiple: Number(r.multiple),
    symbolId: Number(r.symbol_id),
    totalProfit: String(r.total_profit),
    totalMargin: String(r.total_margin),
    totalTrades: Number(r.total_trades),
  }));
}

/** One user's open positions, oldest first (copy trading reads a provider's). */
export function openPositionsOfUser(db: DbOrTx, userId: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, OrderStatus.OPEN)))
    .orderBy(orders.id);
}

/** Orders by id, any user and status. */
export function ordersWithIds(db: DbOrTx, ids: number[]): Promise<OrderRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return db.select().from(orders).where(inArray(orders.id, ids));
}

/** One user's real closed orders, oldest close first (a trader's profile: statistics and equity curve). */
export function closedOrdersOfUser(db: DbOrTx, userId: number, limit = 5_000): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, OrderStatus.CLOSED), eq(orders.isDemo, false)))
    .orderBy(orders.completedAt, orders.id)
    .limit(limit);
}

/** Per trader, over all real closed trades: the largest fall of cumulative profit from a previous peak (from 0), average holding time, total margin. */
export interface TradeCurveFigures {
  userId: number;
  maxDrawdown: string;
  avgHoldSeconds: number;
  totalMargin: string;
}

export async function tradeCurveFigures(db: DbOrTx, userIds: number[]): Promise<Map<number, TradeCurveFigures>> {
  const ids = userIds.filter((id) => Number.isSafeInteger(id));
  if (!ids.length) return new Map();
  const result = await db.execute(sql`
    with c as (
      select o.user_id, o.id, o.completed_at, o.caution_money as m,
             extract(epoch from (o.completed_at - coalesce(o.opened_at, o.completed_at))) as hold,
             sum(o.fact_profits) over (partition by o.user_id order by o.completed_at, o.id) as cum
      from orders o
      where o.status = ${OrderStatus.CLOSED} and not o.is_demo and o.user_id in (${sql.raw(ids.join(','))})
    ), d as (
      select user_id, m, hold,
             greatest(0, max(cum) over (partition by user_id order by completed_at, id rows unbounded preceding)) - cum as dd
      from c
    )
    select user_id, max(dd)::text as dd, coalesce(round(avg(hold)), 0)::bigint::text as hold, sum(m)::text as margin from d group by user_id
  `);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return new Map(
    rows.map((r) => [
      Number(r.user_id),
      {
        userId: Number(r.user_id),
        maxDrawdown: String(r.dd ?? '0'),
        avgHoldSeconds: Number(r.hold ?? 0),
        totalMargin: String(r.margin ?? '0'),
      },
    ]),
  );
}

/** Which of these users hold an open position now. */
export async function usersWithOpenPositions(db: DbOrTx, userIds: number[]): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  const rows = await db
    .selectDistinct({ userId: orders.userId })
    .from(orders)
    .where(and(inArray(orders.userId, userIds), eq(orders.status, OrderStatus.OPEN)));
  return new Set(rows.map((r) => r.userId));
}
