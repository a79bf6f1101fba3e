import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  customType,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { money, price, createdAt } from '../../../platform/db/columns.ts';

/** The trading module's tables: only the trading module reads or writes them (other modules go through its service). */

export const orders = pgTable(
  'orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    symbolId: integer('symbol_id').notNull(),
    isDemo: boolean('is_demo').notNull(),
    /** 1 buy, 2 sell. */
    orderType: smallint('order_type').notNull(),
    /** 0 pending, 1 open, 3 closed, 4 cancelled. */
    status: smallint('status').notNull(),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    leverage: integer('multiple').notNull(),
    contractSize: numeric('contract_size', { precision: 24, scale: 6 }).notNull(),
    /** Target price of a pending order. */
    originPrice: price('origin_price'),
    /** 'limit' or 'stop' for pending orders. */
    pendingKind: text('pending_kind'),
    price: price('price'),
    closePrice: price('update_price'),
    takeProfit: price('target_profit_price'),
    stopLoss: price('target_loss_price'),
    margin: money('caution_money').notNull(),
    fee: money('trade_fee').notNull(),
    /**
     * An account group's commission on the close side (its commission is per side), fixed at the open
     * on the opening terms and charged at the close, when it joins trade_fee. 0: none.
     */
    closeFee: money('close_fee').notNull().default('0'),
    profit: money('fact_profits').notNull().default('0'),
    /** Swaps posted to the balance so far (USD, accumulated); not part of floating profit. */
    swap: money('swap').notNull().default('0'),
    /** The New York date of the last rollover charged: the guard that makes each rollover post once. */
    swapDate: text('swap_date'),
    closedType: smallint('closed_type'),
    cancelReason: text('cancel_reason'),
    clientOrderId: text('client_order_id'),
    /** Pending orders: cancelled by the system at this time (null: good till cancelled). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * The account group's spread markup the order trades with (price units, null: none): it opens and
     * closes on the bid lowered by markup_bid and the ask raised by markup_ask, kept from its placing.
     */
    markupBid: price('markup_bid'),
    markupAsk: price('markup_ask'),
    /** Open positions: the stop-loss follows the price at this distance in points (null: no trailing stop). */
    trailingPoints: integer('trailing_points'),
    /**
     * Raised by the database on every update of the row (a trigger, so no writer can forget it):
     * guarded updates check it, and the engine keeps the newest version it has seen.
     */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * A closed order whose realised profit/loss and fee staff reversed (e.g. filled on an off-market
     * price): when, by whom and why. It stays closed; the trader's history shows it reversed.
     */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    reversedBy: integer('reversed_by'),
    reversalReason: text('reversal_reason'),
  },
  (t) => [
    index('orders_reversed_idx')
      .on(t.reversedAt)
      .where(sql`${t.reversedAt} is not null`),
    index('orders_user_status_idx').on(t.userId, t.status, t.id),
    index('orders_live_idx')
      .on(t.symbolId)
      .where(sql`${t.status} in (0, 1)`),
    uniqueIndex('orders_client_id_uq').on(t.userId, t.clientOrderId),
  ],
);

const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The change log the engine reads: one row per committed insert or update of an order (written by a
 * trigger in the same transaction) and per balance move outside the trading transactions. `xid` is
 * the writing transaction's id: the leader reads only rows of transactions older than every one still
 * running, in (xid, seq) order, so a row that commits late is never skipped.
 */
export const engineChanges = pgTable(
  'engine_changes',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    xid: xid8('xid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    userId: integer('user_id').notNull(),
    /** Null: the user's balances moved. */
    orderId: bigint('order_id', { mode: 'number' }),
    version: integer('version'),
    createdAt: createdAt(),
  },
  (t) => [index('engine_changes_cursor_idx').on(t.xid, t.seq)],
);

export const riskEvents = pgTable('risk_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: integer('user_id').notNull(),
  kind: text('kind').notNull(),
  riskRate: numeric('risk_rate', { precision: 18, scale: 4 }),
  createdAt: createdAt(),
});

/**
 * Price alerts: "tell me when EURUSD bid crosses 1.0900". `direction` is fixed when the alert is set
 * (1: the price rises to `price`, -1: it falls to it); `firedAt` is set once, by a guarded update.
 */
export const priceAlerts = pgTable(
  'price_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    symbolId: integer('symbol_id').notNull(),
    /** 'bid' or 'ask'. */
    side: text('side').notNull(),
    direction: smallint('direction').notNull(),
    price: price('price').notNull(),
    /** Also email this address when it fires (null: push only); `lang` is the language of the email. */
    email: text('email'),
    lang: text('lang').notNull(),
    createdAt: createdAt(),
    firedAt: timestamp('fired_at', { withTimezone: true }),
    firedPrice: price('fired_price'),
  },
  (t) => [
    index('price_alerts_user_idx').on(t.userId, t.id),
    index('price_alerts_active_idx')
      .on(t.symbolId)
      .where(sql`${t.firedAt} is null`),
  ],
);

/**
 * Account groups: the terms a set of users trades on. Null levels and caps take the house's settings
 * (settings table); a symbol with no group_symbols row trades on the symbol's own terms.
 */
export const accountGroups = pgTable(
  'account_groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** 'demo' or 'real'. */
    kind: text('kind').notNull(),
    /** 'none', 'esma_retail' or 'professional'. */
    profile: text('profile').notNull().default('none'),
    marginCallLevel: numeric('margin_call_level', { precision: 12, scale: 2 }),
    stopOutLevel: numeric('stop_out_level', { precision: 12, scale: 2 }),
    /** 'largest_loss', 'largest_margin' or 'partial'. */
    stopOutPolicy: text('stop_out_policy').notNull().default('largest_loss'),
    maxOpenPositions: integer('max_open_positions'),
    maxPendingOrders: integer('max_pending_orders'),
    negativeBalanceProtection: boolean('negative_balance_protection'),
    /** 'B', 'A' or 'hybrid'. */
    book: text('book').notNull().default('B'),
    isDefault: boolean('is_default').notNull().default(false),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_groups_name_uq').on(t.name),
    // One default group per kind: new real users join the real one, demo users the demo one.
    uniqueIndex('account_groups_default_uq')
      .on(t.kind)
      .where(sql`${t.isDefault}`),
  ],
);

export const groupSymbols = pgTable(
  'group_symbols',
  {
    groupId: integer('group_id').notNull(),
    symbolId: integer('symbol_id').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    spreadMarkupPoints: integer('spread_markup_points').notNull().default(0),
    /** Empty: the symbol's leverage list. */
    leverages: jsonb('leverages').$type<number[]>().notNull().default([]),
    maxLots: numeric('max_lots', { precision: 18, scale: 6 }),
    /** 'per_lot', 'per_million' or 'percent_of_margin'; null: the symbol's fee on the house's fee type. */
    commissionType: text('commission_type'),
    commissionRate: numeric('commission_rate', { precision: 18, scale: 8 }).notNull().default('0'),
    swapFree: boolean('swap_free').notNull().default(false),
    swapLong: numeric('swap_long', { precision: 18, scale: 6 }),
    swapShort: numeric('swap_short', { precision: 18, scale: 6 }),
    deviationPoints: integer('deviation_points'),
    hedgeThresholdLots: numeric('hedge_threshold_lots', { precision: 18, scale: 6 }),
    /** [{up_to_lots: string | null, leverage}], ascending. */
    leverageTiers: jsonb('leverage_tiers').$type<{ up_to_lots: string | null; leverage: number }[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.symbolId] })],
);

/**
 * Orders the house sent to a liquidity provider over FIX (hedging; docs/fix.md#hedging). The
 * ClOrdID is unique, and an execution report changes a row only when it carries more filled
 * quantity or a new final status, so a report applied twice changes nothing.
 */
export const hedgeOrders = pgTable(
  'hedge_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clOrdId: text('cl_ord_id').notNull(),
    session: text('session').notNull(),
    symbolId: integer('symbol_id').notNull(),
    /** 'buy' or 'sell'. */
    side: text('side').notNull(),
    /** Units (lots x contract size). */
    quantity: numeric('quantity', { precision: 24, scale: 6 }).notNull(),
    limitPrice: price('limit_price'),
    /** 'sent', 'new', 'partial', 'filled', 'cancelled' (an IOC's rest), 'rejected', 'timeout' (no final answer in time). */
    status: text('status').notNull(),
    filledQty: numeric('filled_qty', { precision: 24, scale: 6 }).notNull().default('0'),
    avgPrice: price('avg_price'),
    /** The client orders it covers (A-book), empty for a hybrid or unwind order. */
    clientOrderIds: jsonb('client_order_ids').$type<number[]>().notNull().default([]),
    /** 'a_open', 'a_close', 'hybrid', 'unwind'. */
    reason: text('reason').notNull(),
    providerOrderId: text('provider_order_id'),
    text: text('text'),
    /** Why the clients' positions and the hedge disagree because of this order (null: they agree). */
    mismatch: text('mismatch'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('hedge_orders_cl_ord_id_uq').on(t.clOrdId), index('hedge_orders_created_idx').on(t.createdAt)],
);

/** What the house holds at each provider, per symbol: signed units (buys positive), from the fills of hedge_orders. */
export const hedgePositions = pgTable(
  'hedge_positions',
  {
    session: text('session').notNull(),
    symbolId: integer('symbol_id').notNull(),
    netUnits: numeric('net_units', { precision: 24, scale: 6 }).notNull().default('0'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.session, t.symbolId] })],
);
