import { z } from 'zod';
import { choiceField, idField, intField, MAX_BIG_ID, text } from './fields.ts';

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
});
export type SubmitInput = z.infer<typeof SubmitInput>;

export const MyDealInput = z.object({
  /** 1 holding, 0 pending, 3 history (closed and cancelled). */
  status: choice([0, 1, 3] as const, 'trading.order_status_invalid', 1),
  page,
  limit,
});

export const OrderIdInput = z.object({ id: orderId });

export const SetStopPriceInput = z.object({
  id: orderId,
  /** 0 or empty removes the take-profit. */
  target_profit_price: rawAmount,
  /** 0 or empty removes the stop-loss. */
  stop_loss_price: rawAmount,
});

export const PageInput = z.object({ page, limit });

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
  ClosedType: z.number().int(),
  CancelReason: z.string(),
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
