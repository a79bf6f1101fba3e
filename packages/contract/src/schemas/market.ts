/**
 * Market calls and live pushes. Wire choice: prices, volumes, amounts, percent changes and symbol
 * terms (Pip, ForexMinCont, ...) are decimal STRINGS (exact, at the symbol's PricePrecision for
 * prices); ids, statuses, precisions, leverages and times are numbers. Times are epoch milliseconds.
 */
import { z } from 'zod';
import { boundedText, idField, intField, optionalIntField } from './fields.ts';
import { CHART_PERIOD_NAMES } from '../chart-periods.ts';
import { MARKET_STATUS_REASONS, PERIOD_NAMES } from '../constants.ts';

const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/);
const epochMs = optionalIntField(0, Number.MAX_SAFE_INTEGER);

export const TradeListInput = z.object({
  /** Case-insensitive filter on Code or ShowCode. */
  searchCurrency: boundedText(50).optional(),
});

export const PeriodSchema = z.enum(PERIOD_NAMES as [string, ...string[]], { message: 'msg:invalid_period' });

/** The stored periods plus the aggregated 240min, 1week and 1mon. */
export const ChartPeriodSchema = z.enum(CHART_PERIOD_NAMES as [string, ...string[]], { message: 'msg:invalid_period' });

export const KlineInput = z.object({
  forex_id: idField('symbol_not_found'),
  period: ChartPeriodSchema,
  /** Page backwards: bars strictly older than `before` ... */
  before: epochMs,
  /** ... or bars at or before `end`. Without either, the newest bars ending with the forming one. */
  end: epochMs,
  limit: intField(1, 1000, 'invalid_number', 300),
});

export const AbbreviatedKlineInput = z.object({
  forex_id: idField('symbol_not_found'),
  period: PeriodSchema.default('60min'),
});

export const LeverageSchema = z.object({ Id: z.number().int(), ForexId: z.number().int(), Value: z.number().int() });

export const ForexQuotationsSchema = z.object({
  Id: z.number().int(),
  ForexId: z.number().int(),
  /** 24-hour open, high, low; Close is the current mid. */
  Open: decimalString,
  High: decimalString,
  Low: decimalString,
  Close: decimalString,
  /** Percent change against the 24-hour open, 2 decimals. */
  Change: decimalString,
  Volume: decimalString,
  Amount: decimalString,
  /** Time of the last tick, epoch ms. */
  NowTime: z.number().int(),
  Bid: decimalString,
  Ask: decimalString,
});

export const TradeListRowSchema = z.object({
  Id: z.number().int(),
  Code: z.string(),
  ShowCode: z.string(),
  /** Path on our server, e.g. /logos/eurusd.svg. */
  Logo: z.string(),
  CategoryId: z.number().int(),
  /** 1 open, 2 closed. */
  MarketStatus: z.union([z.literal(1), z.literal(2)]),
  /** Why MarketStatus is 2 (null while open): outside trading hours, stale quote, or no live quote yet. */
  MarketStatusReason: z.enum(MARKET_STATUS_REASONS).nullable(),
  PricePrecision: z.number().int(),
  /** 1 margin from price and leverage, 2 fixed margin per lot. */
  MarginMode: z.number().int(),
  /** Quantity step in lots. */
  Pip: decimalString,
  ForexMinCont: decimalString,
  ForexMaxCont: decimalString,
  /** Contract size: units per lot. */
  ForexContNum: decimalString,
  ForexFeeRate: decimalString,
  FixedMargin: decimalString.nullable(),
  /** Full spread in price units, the caller's account group's markup included. */
  Spread: decimalString,
  /**
   * The caller's account group's spread markup in price units ("0": none): ForexQuotations' Bid and
   * Ask include it; a client shows DAY_MARKET's bid less MarkupBid and ask plus MarkupAsk, the
   * prices the caller's orders trade on.
   */
  MarkupBid: decimalString,
  MarkupAsk: decimalString,
  Tradable: z.union([z.literal(0), z.literal(1)]),
  /** Seconds a quote stays live: older than this, trading is paused and clients show the price as stale. */
  MaxQuoteAge: z.number().int().positive(),
  LastPrice: decimalString,
  /** Allowed leverages, ascending. */
  HasForexMultiple: z.array(LeverageSchema),
  ForexQuotations: ForexQuotationsSchema,
});
export type TradeListRow = z.infer<typeof TradeListRowSchema>;
export const TradeListResponse = z.array(TradeListRowSchema);

export const CategorySchema = z.object({ Id: z.number().int(), NameShowTrans: z.string() });
export const CategoriesResponse = z.array(CategorySchema);

export const KlineBarSchema = z.object({
  /** Equal to Time. */
  Id: z.number().int(),
  /** Bar open time, epoch ms, floored to the period in UTC. */
  Time: z.number().int(),
  Open: decimalString,
  High: decimalString,
  Low: decimalString,
  Close: decimalString,
  Volume: decimalString,
  /** Volume x Close, 2 decimals. */
  Amount: decimalString,
  /** Percent change from Open to Close, 2 decimals. */
  Change: decimalString,
  Period: z.string(),
  Code: z.string(),
  ForexId: z.number().int(),
});
export type KlineBar = z.infer<typeof KlineBarSchema>;
/** Bars oldest first; without `before`/`end` the last one is the forming bar. */
export const KlineResponse = z.array(KlineBarSchema);

/** The last 48 bars the home list draws (oldest first, the forming bar last), in the kline bar shape. */
export const AbbreviatedKlineResponse = z.array(KlineBarSchema);

// ---------------------------------------------------------------- live socket /v1/ws

export const QuotationSchema = z.object({
  id: z.number().int(),
  forex_id: z.number().int(),
  open: decimalString,
  high: decimalString,
  low: decimalString,
  close: decimalString,
  change: decimalString,
  volume: decimalString,
  amount: decimalString,
  bid: decimalString,
  ask: decimalString,
  /** Tick time, epoch ms. */
  time: z.number().int(),
  /** 1 open, 2 closed. */
  market_status: z.union([z.literal(1), z.literal(2)]),
  /** Why market_status is 2 (null while open). */
  market_status_reason: z.enum(MARKET_STATUS_REASONS).nullable(),
});
export type Quotation = z.infer<typeof QuotationSchema>;

// The socket's messages (the quote and candle pushes, replies, ...) are declared in ../pushes.ts.

/** A trader keeps at most this many favourite symbols. */
export const MAX_FAVOURITES = 200;

export const FavouriteInput = z.object({ forex_id: idField('symbol_not_found') });

/** The trader's favourite symbol ids, oldest first. */
export const FavouritesResponse = z.array(z.number().int());
