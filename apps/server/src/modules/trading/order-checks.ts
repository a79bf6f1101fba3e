import { type Dec, dec, fixed, parseAmount } from '@tp/contract/decimal';
import { OrderStatus, OrderType } from '@tp/contract/constants';
import { closePriceFor, stopsValid } from '@tp/contract/formulas';
import type { SubmitInput } from '@tp/contract/schemas/trading';
import { fail, invalid } from '../../http/errors.ts';
import type { SymbolInfo } from '../market/index.ts';

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
  pending: { target: Dec; kind: 'limit' | 'stop' } | null;
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

/**
 * Checks a submit against the symbol's terms and the current quote; everything that does not
 * depend on the account. A pending order's kind is decided here: a buy below the ask is a limit,
 * above it a stop; sells mirror on the bid.
 */
export function checkOrder(sym: SymbolInfo, input: SubmitInput, quote: { bid: string; ask: string }): OrderRequest {
  const orderType = input.type;
  const leverage = checkLeverage(sym, input.multiple);
  const lots = checkLots(sym, input.cont);
  let pending: OrderRequest['pending'] = null;
  if (input.status === OrderStatus.PENDING) {
    if (input.target_price === undefined || input.target_price.trim() === '') throw invalid('trading.price_required');
    const target = parseField(input.target_price, 'price', sym.pricePrecision);
    const isBuy = orderType === OrderType.BUY;
    const market = dec(isBuy ? quote.ask : quote.bid);
    const limit = isBuy ? target.lte(market) : target.gte(market);
    pending = { target, kind: limit ? 'limit' : 'stop' };
  }
  const takeProfit = parseStop(input.target_profit_price, 'take_profit', sym.pricePrecision);
  const stopLoss = parseStop(input.stop_loss_price, 'stop_loss', sym.pricePrecision);
  const reference = pending ? pending.target : closePriceFor(orderType, quote.bid, quote.ask);
  checkStopSides(orderType, reference, takeProfit, stopLoss, sym.pricePrecision);
  return { orderType, lots, leverage, pending, takeProfit, stopLoss };
}
