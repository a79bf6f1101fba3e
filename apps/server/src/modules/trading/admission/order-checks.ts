import { Code } from '@tp/contract/codes';
import { D, type Dec, dec, fixed, parseAmount } from '@tp/contract/decimal';
import { OrderStatus, OrderType } from '@tp/contract/constants';
import { type Markup, closePriceFor, openPriceFor, stopsValid } from '@tp/contract/formulas';
import type { SubmitInput } from '@tp/contract/schemas/trading';
import { AppError, fail, invalid } from '../../../http/errors.ts';
import type { SymbolInfo } from '../../market/index.ts';
import { nextRollover } from '../swaps/rollover.ts';

/** Quantities are kept to 6 decimals (orders.quantity). */
const LOT_DECIMALS = 6;

export type AmountField = 'quantity' | 'price' | 'take_profit' | 'stop_loss';

/** Parses a user-entered amount strictly; each kind of bad number has its own message. */
export function parseField(raw: string | undefined, field: AmountField, maxDecimals: number, allowZero = false): Dec {
  const parsed = parseAmount(raw, maxDecimals, { allowZero });
  if (parsed.ok) return parsed.value;
  if (parsed.reason === 'decimals') throw invalid(`trading.${field}_decimals`, { places: maxDecimals });
  if (parsed.reason === 'negative') throw invalid(`trading.${field}_negative`);
  if (parsed.reason === 'zero') throw invalid(`trading.${field}_zero`);
  throw invalid(`trading.${field}_invalid`);
}

/** A take-profit or stop-loss: "0" or nothing means none. */
export function parseStop(raw: string | undefined, field: 'take_profit' | 'stop_loss', precision: number): Dec | null {
  if (raw === undefined || raw.trim() === '') return null;
  const value = parseField(raw, field, precision, true);
  return value.isZero() ? null : value;
}

/** Refuses a take-profit or stop-loss on the wrong side of `reference` (the price it would close at). */
export function checkStopSides(orderType: number, reference: Dec, takeProfit: Dec | null, stopLoss: Dec | null, precision: number): void {
  const valid = stopsValid(orderType, reference, takeProfit, stopLoss);
  const isBuy = orderType === OrderType.BUY;
  const shown = fixed(reference, precision);
  if (!valid.tp) throw invalid(isBuy ? 'trading.take_profit_above' : 'trading.take_profit_below', { price: shown });
  if (!valid.sl) throw invalid(isBuy ? 'trading.stop_loss_below' : 'trading.stop_loss_above', { price: shown });
}

export interface OrderRequest {
  orderType: number;
  lots: Dec;
  leverage: number;
  /** Null for a market order. */
  pending: { target: Dec; kind: 'limit' | 'stop'; expiresAt: Date | null } | null;
  takeProfit: Dec | null;
  stopLoss: Dec | null;
}

function checkLeverage(sym: SymbolInfo, raw: string | undefined): number {
  if (!sym.leverages.length) throw fail('trading.no_mult');
  const allowed = sym.leverages.map((l) => l.value);
  const value = raw !== undefined && /^\d{1,6}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!allowed.includes(value)) throw invalid('trading.leverage_not_allowed', { allowed: allowed.join(', ') });
  return value;
}

function checkLots(sym: SymbolInfo, raw: string | undefined): Dec {
  if (raw === undefined || raw.trim() === '') throw invalid('trading.quantity_required');
  const lots = parseField(raw, 'quantity', LOT_DECIMALS);
  if (lots.lt(sym.minLots)) throw invalid('trading.quantity_below_min', { min: sym.minLots.toString() });
  if (lots.gt(sym.maxLots)) throw invalid('trading.quantity_above_max', { max: sym.maxLots.toString() });
  if (!sym.step.isZero() && !lots.mod(sym.step).isZero()) throw invalid('trading.quantity_step', { step: sym.step.toString() });
  return lots;
}

/** A pending order lives at least a minute and at most a year. */
const MIN_EXPIRY_MS = 60_000;
const MAX_EXPIRY_MS = 366 * 86_400_000;

/** A pending order's expiry as the submit call names it (expiry_type). */
export const ExpiryType = { NEVER: 0, END_OF_DAY: 1, AT_TIME: 2 } as const;

/** When a pending order expires: never, at the next 17:00 New York, or at the given time. */
export function expiryOf(type: 0 | 1 | 2, time: number | undefined, now: number): Date | null {
  if (type === ExpiryType.NEVER) return null;
  if (type === ExpiryType.END_OF_DAY) return new Date(nextRollover(now));
  if (time === undefined) throw invalid('trading.expiry_time_required');
  const at = time * 1000;
  if (at < now + MIN_EXPIRY_MS || at > now + MAX_EXPIRY_MS) throw invalid('trading.expiry_out_of_range');
  return new Date(at);
}

/**
 * Checks a submit against the symbol's terms and the current quote; everything that does not
 * depend on the account. A pending order's kind is decided here: a buy below the ask is a limit,
 * above it a stop; sells mirror on the bid.
 */
export function checkOrder(
  sym: SymbolInfo & { markup?: Markup | null },
  input: SubmitInput,
  quote: { bid: string; ask: string },
  now = Date.now(),
): OrderRequest {
  const orderType = input.type;
  const leverage = checkLeverage(sym, input.multiple);
  const lots = checkLots(sym, input.cont);
  let pending: OrderRequest['pending'] = null;
  if (input.status === OrderStatus.PENDING) {
    if (input.target_price === undefined || input.target_price.trim() === '') throw invalid('trading.price_required');
    const target = parseField(input.target_price, 'price', sym.pricePrecision);
    const isBuy = orderType === OrderType.BUY;
    const market = openPriceFor(orderType, quote.bid, quote.ask, sym.markup);
    const limit = isBuy ? target.lte(market) : target.gte(market);
    const kind = limit ? 'limit' : 'stop';
    const derived = `${isBuy ? 'buy' : 'sell'}_${kind}`;
    if (input.pending_type !== undefined && input.pending_type !== derived) {
      throw invalid(`trading.pending_type_mismatch_${input.pending_type}`, { price: fixed(market, sym.pricePrecision) });
    }
    pending = { target, kind, expiresAt: expiryOf(input.expire_type, input.expire_time, now) };
  }
  const takeProfit = parseStop(input.target_profit_price, 'take_profit', sym.pricePrecision);
  const stopLoss = parseStop(input.stop_loss_price, 'stop_loss', sym.pricePrecision);
  const reference = pending ? pending.target : closePriceFor(orderType, quote.bid, quote.ask, sym.markup);
  checkStopSides(orderType, reference, takeProfit, stopLoss, sym.pricePrecision);
  return { orderType, lots, leverage, pending, takeProfit, stopLoss };
}

/**
 * Default slippage tolerance per symbol category, in percent of the price (MT5's "maximum deviation"
 * is in points; the deal call turns this into points at the current price). A trader sets their own in
 * the order form.
 */
const DEFAULT_DEVIATION_PCT: Record<string, string> = { forex: '0.02', commodities: '0.05', indices: '0.05', crypto: '0.1' };
const FALLBACK_DEVIATION_PCT = '0.05';

export function defaultDeviationPoints(sym: SymbolInfo, price: Dec): number {
  const pct = dec(DEFAULT_DEVIATION_PCT[sym.categoryKey ?? ''] ?? FALLBACK_DEVIATION_PCT);
  const point = new D(10).pow(-sym.pricePrecision);
  return Math.max(1, price.times(pct).div(100).div(point).ceil().toNumber());
}

/**
 * Refuses a market order whose fill price is worse than the price the trader saw by more than the
 * tolerance (points): a requote with the new price. A better price is kept; no `seen` price, no check.
 */
export function checkSlippage(
  sym: SymbolInfo,
  orderType: number,
  seenRaw: string | undefined,
  deviation: number | undefined,
  fill: Dec,
): void {
  if (seenRaw === undefined || seenRaw.trim() === '') return;
  const { seen, points, worst } = worstFill(sym, orderType, seenRaw, deviation);
  if (orderType === OrderType.BUY ? fill.gt(worst) : fill.lt(worst)) throw requote(sym, fill, seen, points);
}

/** The worst fill price a market order accepts: the price the trader saw moved against them by the deviation (points). */
export function worstFill(
  sym: SymbolInfo,
  orderType: number,
  seenRaw: string,
  deviation: number | undefined,
): { seen: Dec; points: number; worst: Dec } {
  const seen = parseField(seenRaw, 'price', sym.pricePrecision);
  const points = deviation ?? defaultDeviationPoints(sym, seen);
  const tolerance = new D(10).pow(-sym.pricePrecision).times(points);
  return { seen, points, worst: orderType === OrderType.BUY ? seen.plus(tolerance) : seen.minus(tolerance) };
}

/** The requote refusal: the price now, beyond the trader's tolerance. */
export function requote(sym: SymbolInfo, fill: Dec, seen: Dec, points: number): AppError {
  const price = fixed(fill, sym.pricePrecision);
  return new AppError(Code.REQUOTE, 'trading.requote', { price }, { price, seen: fixed(seen, sym.pricePrecision), deviation: points });
}
