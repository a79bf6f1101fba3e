import { z } from 'zod';
import { orUndefined } from './fields.ts';

/**
 * Account statements: the account log and the closed positions of one date range, with the balance at
 * its start and end. The statement's balance is the account's money: cash plus margin in use and
 * pending reservations, so opening a position (margin moving from cash to locked) is not a balance
 * change; fees, swaps, realised profit, deposits, withdrawals and adjustments are.
 */

const DAY = 86_400;
/** The longest statement: a year, leap day included. */
export const STATEMENT_MAX_DAYS = 366;
/** Rows of each table a statement holds at most; totals always cover the whole range. */
export const STATEMENT_MAX_ROWS = 5_000;
/** 2100-01-01: the latest bound accepted. */
const LATEST = 4_102_444_800;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const WHOLE = /^\d{1,10}$/;

/** "YYYY-MM-DD" as Unix seconds at 00:00 UTC, or null when not a real date. */
export function utcDaySeconds(date: string): number | null {
  const m = DATE.exec(date);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const back = new Date(ms);
  if (back.getUTCFullYear() !== Number(m[1]) || back.getUTCMonth() !== Number(m[2]) - 1 || back.getUTCDate() !== Number(m[3])) return null;
  return ms / 1000;
}

const INVALID = 'msg:trading.statement_range_invalid';

/**
 * A bound: Unix seconds, or a date "YYYY-MM-DD" read in UTC. A date as `end` takes in that whole day
 * (the bound is the next midnight), so start=2026-11-01&end=2026-11-30 is all of November.
 */
const bound = (isEnd: boolean) =>
  z.preprocess(
    (raw) => {
      const v = orUndefined(raw);
      if (typeof v === 'string' && WHOLE.test(v)) return Number(v);
      if (typeof v === 'string') {
        const day = utcDaySeconds(v);
        return day === null ? v : day + (isEnd ? DAY : 0);
      }
      return v;
    },
    z.number({ error: INVALID }).int(INVALID).min(0, INVALID).max(LATEST, INVALID),
  );

export const StatementInput = z
  .object({
    /** Unix seconds (included) or a UTC date (from its 00:00). */
    start: bound(false),
    /** Unix seconds (excluded) or a UTC date (to its end). */
    end: bound(true),
  })
  .refine((v) => v.end > v.start, { error: INVALID })
  .refine((v) => v.end - v.start <= STATEMENT_MAX_DAYS * DAY, { error: 'msg:trading.statement_range_too_long' });

/** Money as decimal strings with 6 places (USD); times in Unix seconds. */
const money = z.string();

export const StatementLogRowSchema = z.object({
  Id: z.number().int(),
  /** deposit, withdraw, withdraw_refund, trade_fee, swap, profit, adjustment, writeoff, demo_funding, demo_reset... */
  Type: z.string(),
  Memo: z.string(),
  /** The entry in the caller's language, as the account log shows it. */
  MemoTran: z.string(),
  Value: money,
  /** The statement balance after this entry. */
  Balance: money,
  CreatedAt: z.number().int(),
});
export type StatementLogRow = z.infer<typeof StatementLogRowSchema>;

export const StatementPositionSchema = z.object({
  Id: z.number().int(),
  ForexId: z.number().int(),
  ShowCode: z.string(),
  PricePrecision: z.number().int(),
  /** 1 buy, 2 sell. */
  OrderType: z.number().int(),
  Quantity: z.string(),
  OpenPrice: z.string(),
  ClosePrice: z.string(),
  TradeFee: money,
  Swap: money,
  /** Realised profit (USD), fee and swap not included. */
  FactProfits: money,
  /** The price move in points (a point is the symbol's last price digit), positive in the position's favour. */
  Points: z.string(),
  /** Why it closed: 1 by the trader, 2 stop-out, 3 take-profit, 4 stop-loss, 5 staff, 6 demo reset. */
  ClosedType: z.number().int(),
  OpenTime: z.number().int(),
  CloseTime: z.number().int(),
});
export type StatementPosition = z.infer<typeof StatementPositionSchema>;

export const StatementSchema = z.object({
  /** The range: start included, end excluded (Unix seconds). */
  start: z.number().int(),
  end: z.number().int(),
  currency: z.string(),
  opening_balance: money,
  closing_balance: money,
  /** The log's sums by kind over the whole range; net_change is closing minus opening balance. */
  totals: z.object({
    deposit: money,
    withdrawal: money,
    profit: money,
    fee: money,
    swap: money,
    adjustment: money,
    net_change: money,
  }),
  /** Balance changes in the range, oldest first. */
  log: z.array(StatementLogRowSchema),
  /** Positions closed in the range (by close time), oldest first. */
  positions: z.array(StatementPositionSchema),
  position_totals: z.object({ count: z.number().int(), lots: z.string(), profit: money, fee: money, swap: money }),
  /** More than STATEMENT_MAX_ROWS rows in a table: the first ones are listed, the totals still cover the range. */
  truncated: z.boolean(),
});
export type Statement = z.infer<typeof StatementSchema>;
