import { z } from 'zod';
import { choiceField, idField, intField, MAX_BIG_ID, optionalIntField, optionalIdField, text } from './fields.ts';

/**
 * Trading calls (spec section 7, PROTOCOL.md). Existing clients send GET query strings, so every
 * value may arrive as a string; amounts stay raw here and are parsed strictly (parseAmount) by the
 * server, which answers each kind of bad number with its own message.
 */
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A raw decimal as typed by the user: kept as a string for strict parsing. */
const rawAmount = z.preprocess(blankToUndefined, z.union([z.string(), z.number()]).transform(String).optional());

const choice = choiceField;

const page = intField(1, 1_000_000, 'trading.page_invalid', 1);
const limit = intField(1, 100, 'trading.page_invalid', 10);
const orderId = idField('trading.order_not_found', MAX_BIG_ID);

/** What a pending order is: the side and whether it waits for a better price (limit) or a breakout (stop). */
export const PENDING_TYPES = ['buy_limit', 'sell_limit', 'buy_stop', 'sell_stop'] as const;
export type PendingType = (typeof PENDING_TYPES)[number];

export const SubmitInput = z.object({
  /** 1 buy, 2 sell. */
  type: choice([1, 2] as const, 'trading.order_type_invalid'),
  /** Lots. */
  cont: rawAmount,
  forex_id: idField('trading.symbol_not_found'),
  /** 1 market, 0 pending at target_price. */
  status: choice([0, 1] as const, 'trading.order_status_invalid', 1),
  target_price: rawAmount,
  stop_loss_price: rawAmount,
  target_profit_price: rawAmount,
  /** Leverage: one of the symbol's HasForexMultiple values. */
  multiple: rawAmount,
  client_order_id: z.preprocess(
    blankToUndefined,
    text().trim().min(1).max(64, { error: 'msg:trading.client_order_id_invalid' }).optional(),
  ),
  /**
   * Market orders: the price the trader saw (ask for a buy, bid for a sell) and the most it may move
   * against them, in points, before the server refuses with a requote. Without `price` no check is made
   * (existing clients); without `deviation` the symbol category's default applies.
   */
  price: rawAmount,
  deviation: optionalIntField(0, 1_000_000, 'trading.deviation_invalid'),
  /**
   * Pending orders: what the trader chose (buy_limit, sell_limit, buy_stop, sell_stop); refused when the
   * target price says otherwise. Left out, it is derived from the target against the current price.
   */
  pending_type: z.preprocess(blankToUndefined, z.enum(PENDING_TYPES, { error: 'msg:trading.pending_type_invalid' }).optional()),
  /** Pending orders: 0 good till cancelled, 1 until the end of the trading day (17:00 New York), 2 until expire_time. */
  expire_type: choice([0, 1, 2] as const, 'trading.expiry_invalid', 0),
  /** Unix seconds, with expire_type 2. */
  expire_time: optionalIntField(1, 4_102_444_800, 'trading.expiry_invalid'),
});
export type SubmitInput = z.infer<typeof SubmitInput>;

export const MyDealInput = z.object({
  /** 1 holding, 0 pending, 3 history (closed and cancelled), -1 every order. */
  status: choice([-1, 0, 1, 3] as const, 'trading.order_status_invalid', 1),
  page,
  limit,
});

export const OrderIdInput = z.object({ id: orderId });

/** A close: the whole position, or `cont` lots of it (a multiple of the symbol's lot step; the rest stays open with its TP and SL). */
export const CloseInput = z.object({ id: orderId, cont: rawAmount });

/** Close all (0), all buys (1) or all sells (2), of one symbol (`forex_id`) or of every symbol. */
export const BatchCloseInput = z.object({
  type: choice([0, 1, 2] as const, 'trading.close_type_invalid', 0),
  forex_id: optionalIdField('trading.symbol_not_found'),
});

/** The trade screen's figures for one symbol. */
/**
 * Most live orders `deal` answers at once: the default caps of one account (200 open positions and
 * 200 pending orders), so an account within the defaults gets all of them in one answer, as before.
 */
export const DEAL_MAX_ORDERS = 400;
/** `page` and `limit` are optional additions: without them the answer is the newest DEAL_MAX_ORDERS orders. */
export const DealInput = z.object({
  forex_id: idField('trading.symbol_not_found'),
  page,
  limit: intField(1, DEAL_MAX_ORDERS, 'trading.page_invalid', DEAL_MAX_ORDERS),
});

export const NoticeInput = z.object({ page, limit });

export const SetStopPriceInput = z.object({
  id: orderId,
  /** 0 or empty removes the take-profit. */
  target_profit_price: rawAmount,
  /** 0 or empty removes the stop-loss. */
  stop_loss_price: rawAmount,
});

export const PageInput = z.object({ page, limit });

/** A trailing stop: the stop-loss follows the price at `points` (0 removes it). */
export const TrailingInput = z.object({ id: orderId, points: intField(0, 1_000_000, 'trading.trailing_invalid') });

// ---------------------------------------------------------------- answers

/** Money as a decimal string with 6 places; prices at the symbol's PricePrecision; "0" when not set. */
export const OrderSchema = z.object({
  Id: z.number().int(),
  UserId: z.number().int(),
  ForexId: z.number().int(),
  OrderType: z.number().int(),
  Status: z.number().int(),
  Quantity: z.string(),
  Multiple: z.number().int(),
  OriginPrice: z.string(),
  Price: z.string(),
  UpdatePrice: z.string(),
  TargetProfitPrice: z.string(),
  TargetLossPrice: z.string(),
  CautionMoney: z.string(),
  TradeFee: z.string(),
  FactProfits: z.string(),
  /** Swaps posted to the balance at rollovers so far (USD; negative was charged); not part of FactProfits. */
  Swap: z.string(),
  /** Why it closed (constants ClosedType): 1 the user, 2 stop-out, 3 take-profit, 4 stop-loss, 5 staff, 6 demo reset; copy trading's closes 7 the provider closed, 8 the copy stop-loss, 9 an unfollow; 0 open. */
  ClosedType: z.number().int(),
  CancelReason: z.string(),
  /** 1: a closed trade staff reversed (its profit or loss and fee were taken back); 0 otherwise. */
  Reversed: z.number().int(),
  /** Pending orders (and positions that were one): buy_limit, sell_limit, buy_stop or sell_stop; "" for market orders. */
  PendingType: z.enum(['', ...PENDING_TYPES]),
  /** Pending orders: when the system cancels it (Unix seconds); 0 good till cancelled. */
  ExpireTime: z.number().int(),
  /** Open positions: the trailing stop's distance in points; 0 none. */
  TrailingPoints: z.number().int(),
  ForexContNum: z.string(),
  CreateTime: z.number().int(),
  CompleteTime: z.number().int(),
  CreateTimeHandler: z.string(),
  CompleteTimeHandler: z.string(),
  ForexTradeLists: z.object({
    Id: z.number().int(),
    Code: z.string(),
    ShowCode: z.string(),
    PricePrecision: z.number().int(),
    Logo: z.string(),
  }),
});
export type Order = z.infer<typeof OrderSchema>;

export const MyDealSchema = z.object({
  data: z.array(OrderSchema),
  total: z.number().int(),
  /** Holding: floating profit of every open position; history: realised profit of every closed order. */
  all_fact_profits: z.string(),
  balance: z.string(),
});

export const BalanceSchema = z.object({ balance: z.string(), lock_balance: z.string(), currency: z.string() });

/** Account figures (TRADING-RULES.md); percentages are null while no position is open. */
export const ForexDetailSchema = z.object({
  balance: z.string(),
  lock_balance: z.string(),
  equity: z.string(),
  float_profit: z.string(),
  margin: z.string(),
  risk_rate: z.string().nullable(),
  prepayment_ratio: z.string().nullable(),
  available_prepayment: z.string(),
  margin_call: z.union([z.literal(0), z.literal(1)]),
  margin_call_level: z.string(),
  stop_out_level: z.string(),
});
export type ForexDetail = z.infer<typeof ForexDetailSchema>;

export const AccountLogItemSchema = z.object({
  Id: z.number().int(),
  Value: z.string(),
  Type: z.string(),
  Memo: z.string(),
  MemoTran: z.string(),
  CreatedAt: z.number().int(),
  CreatedAtTran: z.string(),
});
export const AccountLogSchema = z.object({ data: z.array(AccountLogItemSchema), total: z.number().int() });

export const DemoAccountSchema = z.object({
  demo_id: z.string(),
  id: z.number().int(),
  uid: z.string(),
  is_demo: z.literal(1),
  balance: z.string(),
});

/** What batch_Close_by_type did: the positions it closed, and those it could not close with why (a closed market). */
export const BatchCloseSchema = z.object({
  closed: z.array(OrderSchema),
  failed: z.array(z.object({ id: z.number().int(), msg: z.string() })),
  /** Realised profit of the closed positions (USD). */
  profit: z.string(),
});

/** GET /v1/api/forex/deal: the balance, lot limits and open orders of one symbol (the trade screen of existing clients). */
export const DealSchema = z.object({
  forex_id: z.number().int(),
  balance: z.string(),
  lock_balance: z.string(),
  available_prepayment: z.string(),
  min_lots: z.string(),
  max_lots: z.string(),
  lot_step: z.string(),
  multiples: z.array(z.number().int()),
  /** The default slippage tolerance of the symbol's category, in points. */
  deviation: z.number().int(),
  /** Open positions (status 1) and pending orders (status 0) of this symbol, newest first: one page of them. */
  orders: z.array(OrderSchema),
  /** How many open positions and pending orders of this symbol there are in all (more than `orders` holds when paged). */
  orders_total: z.number().int(),
});

/** Notices about the account rather than an order (money, identity, support): order fields are 0 or empty. */
export const ACCOUNT_NOTICE_KINDS = [
  'deposit_approved',
  'deposit_rejected',
  'withdrawal_paid',
  'withdrawal_rejected',
  'identity_verified',
  'identity_rejected',
  'support_reply',
  // Copy trading: the subscription fee of a new period could not be paid; copying the provider is paused.
  'copy_fee_unpaid',
] as const;
/**
 * An event a trader is told about: a close by take-profit, stop-loss, stop-out or staff, a pending
 * order filled or cancelled by the system, a margin call; and account events: a deposit approved or
 * rejected, a withdrawal paid or rejected, identity verified or rejected, a support reply. Pushed as `{type: "NOTICE", ...}` and listed by
 * /v1/api/forex/notices (PROTOCOL.md).
 */
export const NOTICE_KINDS = [
  'take_profit',
  'stop_loss',
  'trailing_stop',
  'stop_out',
  'staff_close',
  'demo_reset',
  'pending_filled',
  'pending_cancelled',
  'margin_call',
  // A copied position the copier closed (the provider closed it, the copy stop-loss, an unfollow): closed_type 7-9.
  'copy_close',
  ...ACCOUNT_NOTICE_KINDS,
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
export const NoticeSchema = z.object({
  kind: z.enum(NOTICE_KINDS),
  order_id: z.number().int(),
  forex_id: z.number().int(),
  symbol: z.string(),
  /** 1 buy, 2 sell. */
  order_type: z.number().int(),
  lots: z.string(),
  /** The close price (closes), the fill price (fills), the target price (cancellations); a margin call: the margin level in percent (order fields 0 or empty). */
  price: z.string(),
  /** Realised profit (USD) of a close; "0" otherwise. */
  profit: z.string(),
  /** Unix seconds. */
  time: z.number().int(),
  /** Money notices (deposit_*, withdrawal_*): the amount, decimal string with 2 decimals. */
  amount: z.string().optional(),
  /** Money notices: the currency of `amount` (e.g. USD, USDT). */
  currency: z.string().optional(),
  /** Rejections (deposit, withdrawal, identity): the reason staff gave, when they gave one. */
  reason: z.string().optional(),
});
export type Notice = z.infer<typeof NoticeSchema>;
export const NoticePageSchema = z.object({ data: z.array(NoticeSchema), total: z.number().int() });

// ---------------------------------------------------------------- price alerts

/** At most this many alerts wait to fire per user. */
export const MAX_ACTIVE_ALERTS = 50;

/** "Tell me when EURUSD bid crosses 1.0900": the direction is taken from the price at the time it is set. */
export const AlertAddInput = z.object({
  forex_id: idField('trading.symbol_not_found'),
  price: rawAmount,
  /** Which price to watch: bid (default) or ask. */
  side: z.preprocess(blankToUndefined, z.enum(['bid', 'ask'], { error: 'msg:trading.alert_side_invalid' }).default('bid')),
  /** 1: also email the account's address when it fires. */
  email: choice([0, 1] as const, 'trading.alert_email_invalid', 0),
});

export const AlertSchema = z.object({
  id: z.number().int(),
  forex_id: z.number().int(),
  symbol: z.string(),
  side: z.enum(['bid', 'ask']),
  /** 1 fires when the price rises to `price`, -1 when it falls to it. */
  direction: z.union([z.literal(1), z.literal(-1)]),
  price: z.string(),
  email: z.union([z.literal(0), z.literal(1)]),
  /** Unix seconds. */
  created_at: z.number().int(),
  /** Unix seconds, 0 while waiting. */
  fired_at: z.number().int(),
  /** The price that fired it ("0" while waiting). */
  fired_price: z.string(),
});
export type Alert = z.infer<typeof AlertSchema>;

export const AlertListSchema = z.object({ data: z.array(AlertSchema), total: z.number().int(), limit: z.number().int() });

/**
 * The risk warning a regulatory profile requires (ESMA retail): the share of retail accounts that lost
 * money over the last 12 months, and when it was computed. `show` 1 when the caller's account group
 * (a guest: the default real group) follows a profile that requires it and a figure exists.
 */
export const RiskWarningSchema = z.object({
  show: z.number().int(),
  /** Percent with 2 decimals; null before the first computation. */
  percent: z.string().nullable(),
  /** Real accounts that closed a position in the period, and how many of them lost money. */
  accounts: z.number().int(),
  lost: z.number().int(),
  /** ISO time of the computation and the start of the period it covers (12 months before it). */
  computed_at: z.string().nullable(),
  period_from: z.string().nullable(),
});
export type RiskWarning = z.infer<typeof RiskWarningSchema>;
