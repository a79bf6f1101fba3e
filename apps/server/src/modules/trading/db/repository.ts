import { and, count, desc, eq, getTableColumns, gt, inArray, isNotNull, isNull, lte, ne, or, sql, sum } from 'drizzle-orm';
import { ClosedType, OrderStatus } from '@tp/contract/constants';
import {
  type DbOrTx,
  type PreparedCall,
  type RawRow,
  preparedCall,
  preparedCalls,
  queryRaw,
  statementTexts,
} from '../../../platform/db/client.ts';
import type { LeadStatement } from '../../ledger/index.ts';
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
  ClosedType.COPY_PROVIDER,
  ClosedType.COPY_STOP_LOSS,
  ClosedType.COPY_UNFOLLOW,
];

const orderColumns = Object.entries(getTableColumns(orders));
const orderColumnList = orderColumns.map(([key, column]) => `${column.name} as "${key}"`).join(', ');

/** SQL text reading orders matching `condition` (with $1, $2… parameters), ordered by id. */
export const ordersWhereText = (condition: string, lock = false): string =>
  `select ${orderColumnList} from orders where ${condition} order by id${lock ? ' for update' : ''}`;

/**
 * Which orders a money transaction reads under the user's lock (ledger.withLockedUser): one of
 * the shapes below, with its integer arguments.
 */
export interface OrdersCondition {
  shape: keyof typeof CONDITIONS;
  args: (number | number[])[];
}

const CONDITIONS = {
  open: `user_id = $1 and status = ${OPEN}`,
  live: `user_id = $1 and status in (${PENDING}, ${OPEN})`,
  own_open: `id = $2 and user_id = $1 and status = ${OPEN}`,
  own_pending: `id = $2 and user_id = $1 and status = ${PENDING}`,
  own: `user_id = $1 and id = any($2::bigint[])`,
  one_and_open: `user_id = $1 and (id = $2 or status = ${OPEN})`,
} as const;

const orderReads = preparedCalls();

/**
 * The read of `condition` as a first statement of a transaction (it travels with BEGIN and the
 * user's lock; on PostgreSQL it is prepared once per connection); map its rows with orderFromRaw.
 */
export function ordersWhere(condition: OrdersCondition, lock = false): PreparedCall {
  const name = `orders_${condition.shape}${lock ? '_lock' : ''}`;
  return orderReads(name, () => ordersWhereText(CONDITIONS[condition.shape], lock))(...condition.args);
}

/** ordersWhere condition: the user's open positions. */
export const openPositionsCondition = (userId: number): OrdersCondition => ({ shape: 'open', args: [userId] });

/** ordersWhere condition: the user's open positions and pending orders. */
export const liveOrdersCondition = (userId: number): OrdersCondition => ({ shape: 'live', args: [userId] });

/** ordersWhere condition: one open position, only if it is the user's. */
export const ownOpenPositionCondition = (userId: number, orderId: number): OrdersCondition => ({
  shape: 'own_open',
  args: [userId, orderId],
});

/** ordersWhere condition: some orders of the user, whatever their status. */
export const ownOrdersCondition = (userId: number, orderIds: number[]): OrdersCondition => ({ shape: 'own', args: [userId, orderIds] });

/** ordersWhere condition: one order of the user (whatever its status) and the user's open positions. */
export const orderAndOpenPositionsCondition = (userId: number, orderId: number): OrdersCondition => ({
  shape: 'one_and_open',
  args: [userId, orderId],
});

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
  const { text, params } = insertOrderStatement(values);
  const [row] = await queryRaw(db, text, params);
  return row ? orderFromRaw(row) : null;
}

/** The insert of an order (no row when the user already has an order with its client order id), e.g. to travel with its posting. */
export function insertOrderStatement(values: NewOrder): LeadStatement {
  const given = orderColumns.filter(([key]) => values[key as keyof NewOrder] !== undefined);
  const key = `insert:${given.map(([key]) => key).join(',')}`;
  const text = textFor(key, () => {
    const names = given.map(([, column]) => column.name).join(', ');
    const params = given.map((_, i) => `$${i + 1}`).join(', ');
    return `insert into orders (${names}) values (${params}) on conflict do nothing returning ${orderColumnList}`;
  });
  const params = given.map(([key, column]) => {
    const value = values[key as keyof NewOrder];
    return value === null ? null : column.mapToDriverValue(value);
  });
  return { key, text, params };
}

/** The next order id, taken with the lock of the transaction that opens the order: its posting can then travel with its insert. */
export const nextOrderId = preparedCall('orders_next_id', `select nextval('orders_id_seq')::text as id`);

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
  set: { price: string; closePrice: string; margin: string; fee: string; closeFee: string },
): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ ...set, status: OPEN, openedAt: new Date() })
    .where(and(eq(orders.id, id), eq(orders.status, PENDING)))
    .returning();
  return row ?? null;
}

/**
 * Open -> closed, once, and only the row as the caller read it: the guard on the version refuses a
 * row that changed since (a partial close, a stop edit, a swap), so a close never settles terms that
 * are no longer the position's. Null when it was closed or changed: the caller re-reads it locked.
 */
export async function markClosed(
  db: DbOrTx,
  id: number,
  version: number,
  set: { closePrice: string; profit: string; closedType: number },
): Promise<OrderRow | null> {
  const { text, params } = closeStatement(id, version, set);
  const [row] = await queryRaw(db, text, params);
  return row ? orderFromRaw(row) : null;
}

/** The guarded close of an open position at `version` (no row when it is no longer so), e.g. to travel with its posting. */
export function closeStatement(
  id: number,
  version: number,
  set: { closePrice: string; profit: string; closedType: number },
): LeadStatement {
  const text = textFor(
    'close',
    () =>
      `update orders set update_price = $1, fact_profits = $2, closed_type = $3, status = ${CLOSED}, completed_at = $4,
      trade_fee = trade_fee + close_fee
      where id = $5 and status = ${OPEN} and version = $6 returning ${orderColumnList}`,
  );
  return { key: 'close', text, params: [set.closePrice, set.profit, set.closedType, new Date().toISOString(), id, version] };
}

/** One order as it is now, locked until the end of the transaction. */
export async function lockOrder(db: DbOrTx, id: number): Promise<OrderRow | undefined> {
  const [row] = await queryRaw(
    db,
    textFor('lock', () => ordersWhereText(`id = $1`, true)),
    [id],
  );
  return row ? orderFromRaw(row) : undefined;
}

/** Orders by id, as they are now (the engine's change log names them; the rows are the truth). */
export function ordersByIds(db: DbOrTx, ids: number[]): Promise<OrderRow[]> {
  return ids.length ? db.select().from(orders).where(inArray(orders.id, ids)) : Promise.resolve([]);
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
    .set({ status: OrderStatus.CANCELLED, cancelReason, closedType, completedAt: new Date() })
    .where(and(eq(orders.id, id), eq(orders.status, PENDING)))
    .returning();
  return row ?? null;
}

export async function updateStops(
  db: DbOrTx,
  id: number,
  userId: number,
  takeProfit: string | null,
  stopLoss: string | null,
): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ takeProfit: takeProfit, stopLoss: stopLoss })
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
    .select({ s: sum(orders.profit) })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, OrderStatus.CLOSED)));
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
 * Partial close, step one: the open position keeps `rest` lots with its share of margin, fee and swap, and
 * a new open row takes the other part (same open price, time and leverage, no stops) to be closed at
 * once. The margin locked in total does not change, so no posting is needed. Null when the position
 * is no longer open or no longer the row the caller read (its version moved).
 */
export async function splitOrder(
  tx: DbOrTx,
  row: OrderRow,
  rest: { quantity: string; margin: string; fee: string; closeFee: string; swap?: string },
  part: { quantity: string; margin: string; fee: string; closeFee: string; swap?: string },
): Promise<{ kept: OrderRow; part: OrderRow } | null> {
  const [kept] = await tx
    .update(orders)
    .set(rest)
    .where(and(eq(orders.id, row.id), eq(orders.status, OPEN), eq(orders.version, row.version)))
    .returning();
  if (!kept) return null;
  const split = await insertOrder(tx, {
    userId: row.userId,
    symbolId: row.symbolId,
    isDemo: row.isDemo,
    orderType: row.orderType,
    status: OPEN,
    quantity: part.quantity,
    leverage: row.leverage,
    contractSize: row.contractSize,
    originPrice: row.originPrice,
    pendingKind: row.pendingKind,
    price: row.price,
    closePrice: row.closePrice,
    takeProfit: null,
    stopLoss: null,
    margin: part.margin,
    fee: part.fee,
    closeFee: part.closeFee,
    // The part was held over the same rollovers: it owes none the whole was charged for.
    swap: part.swap,
    swapDate: row.swapDate,
    markupBid: row.markupBid,
    markupAsk: row.markupAsk,
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
 * Orders the trader is told about (NOTICE): closed by take-profit, stop-loss, stop-out, staff, a demo
 * reset or copy trading, filled pending orders, and pending orders the system cancelled; newest first.
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
export async function liveOrdersOfSymbol(
  db: DbOrTx,
  userId: number,
  symbolId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: OrderRow[]; total: number }> {
  const where = and(eq(orders.userId, userId), eq(orders.symbolId, symbolId), inArray(orders.status, [PENDING, OPEN]));
  const [rows, [counted]] = await Promise.all([
    db.select().from(orders).where(where).orderBy(desc(orders.id)).limit(page.limit).offset(page.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

/** ordersWhere condition: one pending order of the user. */
export const ownPendingCondition = (userId: number, orderId: number): OrdersCondition => ({
  shape: 'own_pending',
  args: [userId, orderId],
});

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
    .set({ stopLoss: to })
    .where(
      and(
        eq(orders.id, id),
        eq(orders.status, OPEN),
        isNotNull(orders.trailingPoints),
        from === null ? isNull(orders.stopLoss) : eq(orders.stopLoss, from),
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

/** Where the engine's reader of the change log stands: every row up to (xid, seq) is applied. */
export interface ChangeCursor {
  xid: string;
  seq: number;
}

export interface ChangeRow {
  seq: number;
  xid: string;
  userId: number;
  orderId: number | null;
  version: number | null;
}

/**
 * The oldest transaction still running: every change log row of an older transaction is committed
 * (or gone), so a reader that starts here misses nothing that commits later.
 */
export async function changeHorizon(db: DbOrTx): Promise<string> {
  const [row] = await queryRaw(db, 'select pg_snapshot_xmin(pg_current_snapshot())::text as xmin', []);
  return String(row!.xmin);
}

/**
 * The change log after `cursor`, in (xid, seq) order, of finished transactions only: a transaction
 * still running may yet commit rows with smaller sequence numbers than rows already visible.
 */
export async function changesAfter(db: DbOrTx, cursor: ChangeCursor, limit: number): Promise<ChangeRow[]> {
  const rows = await queryRaw(
    db,
    textFor(
      'changes',
      () =>
        `select seq, xid::text as xid, user_id, order_id, version from engine_changes
        where (xid, seq) > ($1::xid8, $2::bigint) and xid < pg_snapshot_xmin(pg_current_snapshot())
        order by xid, seq limit $3`,
    ),
    [cursor.xid, cursor.seq, limit],
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    xid: String(r.xid),
    userId: Number(r.user_id),
    orderId: r.order_id === null ? null : Number(r.order_id),
    version: r.version === null ? null : Number(r.version),
  }));
}

/** Records in the change log that a user's balances moved, in the transaction that moved them. */
export async function logBalanceMove(db: DbOrTx, userId: number): Promise<void> {
  await queryRaw(
    db,
    textFor('log-balances', () => 'insert into engine_changes (user_id) values ($1)'),
    [userId],
  );
}

/** Drops change log rows older than `before` (the reader is far past them). */
export async function pruneChanges(db: DbOrTx, before: Date, limit: number): Promise<number> {
  const rows = await queryRaw(
    db,
    textFor(
      'prune',
      () =>
        `delete from engine_changes where seq in (select seq from engine_changes where created_at < $1 order by seq limit $2) returning seq`,
    ),
    [before.toISOString(), limit],
  );
  return rows.length;
}
