import { and, count, desc, eq, getTableColumns, gt, inArray, isNotNull, isNull, lte, ne, or, sql, sum } from 'drizzle-orm';
import { ClosedType } from '@tp/contract/constants';
import { type DbOrTx, type RawRow, queryRaw, statementTexts } from '../../platform/db/client.ts';
import { orders, riskEvents } from './schema.ts';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;

const OPEN = 1;
const PENDING = 0;
const CLOSED = 3;
const CANCELLED = 4;
/** Closes the trader did not ask for, and is told about. */
const NOTICE_CLOSED_TYPES: number[] = [
  ClosedType.STOP_OUT,
  ClosedType.TAKE_PROFIT,
  ClosedType.STOP_LOSS,
  ClosedType.STAFF,
  ClosedType.DEMO_RESET,
];

const orderColumns = Object.entries(getTableColumns(orders));
const orderColumnList = orderColumns.map(([key, column]) => `${column.name} as "${key}"`).join(', ');

/**
 * SQL text reading orders (e.g. `ordersWhere(\`user_id = ${id} and status = 1\`)`), for reads that
 * travel with BEGIN and the user's lock (ledger.withLockedUser); map its rows with orderFromRaw.
 * Only integers the caller checked may be inlined into `condition`.
 */
export const ordersWhere = (condition: string): string => `select ${orderColumnList} from orders where ${condition} order by id`;

/** An integer about to be inlined into SQL text: anything else is refused before it gets there. */
function sqlInt(n: number): number {
  if (!Number.isSafeInteger(n)) throw new Error(`orders: ${String(n)} is not an integer`);
  return n;
}

/** ordersWhere condition: the user's open positions. */
export const openPositionsCondition = (userId: number): string => `user_id = ${sqlInt(userId)} and status = ${OPEN}`;

/** ordersWhere condition: the user's open positions and pending orders. */
export const liveOrdersCondition = (userId: number): string => `user_id = ${sqlInt(userId)} and status in (${PENDING}, ${OPEN})`;

/** ordersWhere condition: one open position, only if it is the user's. */
export const ownOpenPositionCondition = (userId: number, orderId: number): string =>
  `id = ${sqlInt(orderId)} and user_id = ${sqlInt(userId)} and status = ${OPEN}`;

/** ordersWhere condition: one order of the user (whatever its status) and the user's open positions. */
export const orderAndOpenPositionsCondition = (userId: number, orderId: number): string =>
  `user_id = ${sqlInt(userId)} and (id = ${sqlInt(orderId)} or status = ${OPEN})`;

/** An order row from a raw driver row of ordersWhere, typed as the query builder types it. */
export function orderFromRaw(raw: RawRow): OrderRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of orderColumns) {
    const value = raw[key];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as OrderRow;
}

/** Statement texts by the columns they write. */
const textFor = statementTexts();

/** Inserts an order; null when the user already has an order with this client order id. */
export async function insertOrder(db: DbOrTx, values: NewOrder): Promise<OrderRow | null> {
  const given = orderColumns.filter(([key]) => values[key as keyof NewOrder] !== undefined);
  const text = textFor(`insert:${given.map(([key]) => key).join(',')}`, () => {
    const names = given.map(([, column]) => column.name).join(', ');
    const params = given.map((_, i) => `$${i + 1}`).join(', ');
    return `insert into orders (${names}) values (${params}) on conflict do nothing returning ${orderColumnList}`;
  });
  const params = given.map(([key, column]) => {
    const value = values[key as keyof NewOrder];
    return value === null ? null : column.mapToDriverValue(value);
  });
  const [row] = await queryRaw(db, text, params);
  return row ? orderFromRaw(row) : null;
}

export async function findOrder(db: DbOrTx, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row;
}

export async function findByClientOrderId(db: DbOrTx, userId: number, clientOrderId: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.clientOrderId, clientOrderId)))
    .limit(1);
  return row;
}

export function openPositionsOf(db: DbOrTx, userId: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, OPEN)))
    .orderBy(orders.id);
}

export function liveOrdersOf(db: DbOrTx, userId: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, [PENDING, OPEN])))
    .orderBy(orders.id);
}

/** Every pending and open order, a chunk at a time (engine start). */
export function liveOrdersAfter(db: DbOrTx, afterId: number, limit: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(inArray(orders.status, [PENDING, OPEN]), gt(orders.id, afterId)))
    .orderBy(orders.id)
    .limit(limit);
}

/** Pending -> open, once: the guard on status makes a second attempt return null. */
export async function markOpened(
  db: DbOrTx,
  id: number,
  set: { price: string; updatePrice: string; cautionMoney: string; tradeFee: string },
): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ ...set, status: OPEN, openedAt: new Date() })
    .where(and(eq(orders.id, id), eq(orders.status, PENDING)))
    .returning();
  return row ?? null;
}

/**
 * Open -> closed, once, whoever asks first. `stop` also requires the take-profit or stop-loss that
 * triggered the close to be still the stored one.
 */
export async function markClosed(
  db: DbOrTx,
  id: number,
  set: { updatePrice: string; factProfits: string; closedType: number },
  stop?: { column: 'targetProfitPrice' | 'targetLossPrice'; level: string },
): Promise<OrderRow | null> {
  const text = textFor(
    `close:${stop?.column ?? ''}`,
    () =>
      `update orders set update_price = $1, fact_profits = $2, closed_type = $3, status = 3, completed_at = $4
      where id = $5 and status = ${OPEN}${stop ? ` and ${orders[stop.column].name} = $6` : ''} returning ${orderColumnList}`,
  );
  const params = [set.updatePrice, set.factProfits, set.closedType, new Date().toISOString(), id];
  if (stop) params.push(stop.level);
  const [row] = await queryRaw(db, text, params);
  return row ? orderFromRaw(row) : null;
}

/** Pending -> cancelled, once. */
export async function markCancelled(
  db: DbOrTx,
  id: number,
  cancelReason: string,
  closedType: number | null = null,
): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ status: 4, cancelReason, closedType, completedAt: new Date() })
    .where(and(eq(orders.id, id), eq(orders.status, PENDING)))
    .returning();
  return row ?? null;
}

export async function updateStops(
  db: DbOrTx,
  id: number,
  userId: number,
  targetProfitPrice: string | null,
  targetLossPrice: string | null,
): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ targetProfitPrice, targetLossPrice })
    .where(and(eq(orders.id, id), eq(orders.userId, userId), inArray(orders.status, [PENDING, OPEN])))
    .returning();
  return row ?? null;
}

export async function listOrders(
  db: DbOrTx,
  userId: number,
  statuses: number[],
  page: number,
  limit: number,
): Promise<{ rows: OrderRow[]; total: number }> {
  const where = and(eq(orders.userId, userId), inArray(orders.status, statuses));
  const history = statuses.includes(3);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(history ? desc(orders.completedAt) : desc(orders.id), desc(orders.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

/** Realised profit of every closed order of the user. */
export async function realisedProfit(db: DbOrTx, userId: number): Promise<string> {
  const [row] = await db
    .select({ s: sum(orders.factProfits) })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 3)));
  return row?.s ?? '0';
}

export interface RiskEventRow {
  userId: number;
  kind: string;
  riskRate: string | null;
}

/** Risk events in one statement, in the order given (ids follow it). */
export async function insertRiskEvents(db: DbOrTx, rows: RiskEventRow[]): Promise<void> {
  if (rows.length) await db.insert(riskEvents).values(rows);
}

/**
 * Partial close, step one: the open position keeps `rest` lots with its share of margin and fee, and
 * a new open row takes the other part (same open price, time and leverage, no stops) to be closed at
 * once. The margin locked in total does not change, so no posting is needed. Null when the position
 * is no longer open or no longer has `quantity` lots (a concurrent close or partial close).
 */
export async function splitOrder(
  tx: DbOrTx,
  row: OrderRow,
  rest: { quantity: string; cautionMoney: string; tradeFee: string },
  part: { quantity: string; cautionMoney: string; tradeFee: string },
): Promise<{ kept: OrderRow; part: OrderRow } | null> {
  const [kept] = await tx
    .update(orders)
    .set(rest)
    .where(and(eq(orders.id, row.id), eq(orders.status, OPEN), eq(orders.quantity, row.quantity)))
    .returning();
  if (!kept) return null;
  const split = await insertOrder(tx, {
    userId: row.userId,
    symbolId: row.symbolId,
    isDemo: row.isDemo,
    orderType: row.orderType,
    status: OPEN,
    quantity: part.quantity,
    multiple: row.multiple,
    contractSize: row.contractSize,
    originPrice: row.originPrice,
    pendingKind: row.pendingKind,
    price: row.price,
    updatePrice: row.updatePrice,
    targetProfitPrice: null,
    targetLossPrice: null,
    cautionMoney: part.cautionMoney,
    tradeFee: part.tradeFee,
    clientOrderId: null,
    openedAt: row.openedAt,
  });
  return split ? { kept, part: split } : null;
}

/** Every order of the user (my_deal status -1), newest first. */
export async function listAllOrders(db: DbOrTx, userId: number, page: number, limit: number): Promise<{ rows: OrderRow[]; total: number }> {
  const where = eq(orders.userId, userId);
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

/**
 * Orders the trader is told about (NOTICE): closed by take-profit, stop-loss, stop-out, staff or a demo
 * reset, filled pending orders, and pending orders the system cancelled; newest first.
 */
export async function noticeOrders(db: DbOrTx, userId: number, page: number, limit: number): Promise<{ rows: OrderRow[]; total: number }> {
  const where = and(
    eq(orders.userId, userId),
    or(
      and(eq(orders.status, CLOSED), inArray(orders.closedType, NOTICE_CLOSED_TYPES)),
      and(inArray(orders.status, [OPEN, CLOSED]), isNotNull(orders.originPrice)),
      and(eq(orders.status, CANCELLED), ne(orders.cancelReason, 'user')),
    ),
  );
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(sql`coalesce(${orders.completedAt}, ${orders.openedAt}, ${orders.createdAt})`), desc(orders.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

/** Open positions and pending orders of one user on one symbol, newest first. */
export function liveOrdersOfSymbol(db: DbOrTx, userId: number, symbolId: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.symbolId, symbolId), inArray(orders.status, [PENDING, OPEN])))
    .orderBy(desc(orders.id));
}

/** ordersWhere condition: one pending order of the user. */
export const ownPendingCondition = (userId: number, orderId: number): string =>
  `id = ${sqlInt(orderId)} and user_id = ${sqlInt(userId)} and status = ${PENDING}`;

/** Pending orders whose expiry has passed, oldest first. */
export function expiredPendings(db: DbOrTx, now: Date, limit: number): Promise<Pick<OrderRow, 'id' | 'userId' | 'isDemo'>[]> {
  return db
    .select({ id: orders.id, userId: orders.userId, isDemo: orders.isDemo })
    .from(orders)
    .where(and(eq(orders.status, PENDING), lte(orders.expiresAt, now)))
    .orderBy(orders.expiresAt)
    .limit(limit);
}

/** Open positions with a trailing stop. */
export function trailingPositions(db: DbOrTx): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.status, OPEN), isNotNull(orders.trailingPoints)));
}

/** Sets or removes (null) the trailing distance of the user's open position. */
export async function setTrailing(db: DbOrTx, id: number, userId: number, points: number | null): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ trailingPoints: points })
    .where(and(eq(orders.id, id), eq(orders.userId, userId), eq(orders.status, OPEN)))
    .returning();
  return row ?? null;
}

/**
 * Moves a trailing stop-loss, only forward and only while the position is open with the stop-loss the
 * watcher last saw (a trader's own edit in between wins).
 */
export async function trailStopLoss(db: DbOrTx, id: number, from: string | null, to: string): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ targetLossPrice: to })
    .where(
      and(
        eq(orders.id, id),
        eq(orders.status, OPEN),
        isNotNull(orders.trailingPoints),
        from === null ? isNull(orders.targetLossPrice) : eq(orders.targetLossPrice, from),
      ),
    )
    .returning();
  return row ?? null;
}

/** The user's margin calls, newest first (with the closes and fills, the notices list). */
export async function marginCallEvents(
  db: DbOrTx,
  userId: number,
  limit: number,
): Promise<{ rows: { riskRate: string | null; createdAt: Date }[]; total: number }> {
  const where = and(eq(riskEvents.userId, userId), eq(riskEvents.kind, 'margin_call'));
  const [rows, [counted]] = await Promise.all([
    db
      .select({ riskRate: riskEvents.riskRate, createdAt: riskEvents.createdAt })
      .from(riskEvents)
      .where(where)
      .orderBy(desc(riskEvents.id))
      .limit(limit),
    db.select({ n: count() }).from(riskEvents).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}
