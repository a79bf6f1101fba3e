import { dec, D, type Dec } from '@tp/contract/decimal';
import { feeOf, marginOf } from '@tp/contract/formulas';
import { OrderType } from '@tp/contract/constants';
import { isDecimal } from '../../../lib/stop-levels';
import type { TradeSymbol } from '../../../api/get-trade-list';

/** Quote currencies of symbols whose code does not end in it (indices priced in EUR, GBP, JPY). */
const INDEX_QUOTES: Record<string, string> = { GER40: 'EUR', UK100: 'GBP', JPN225: 'JPY' };

export function quoteCurrencyOf(code: string): string {
  if (INDEX_QUOTES[code]) return INDEX_QUOTES[code];
  if (/^[A-Z]{6}$/.test(code)) return code.slice(3);
  return 'USD';
}

/**
 * Multiplier from a symbol's quote currency to USD at current mids (TRADING-RULES.md):
 * 1 for USD, 1/mid of USDxxx, or the mid of xxxUSD. Unknown conversions fall back to 1.
 */
export function quoteToUsdOf(code: string, midOf: (code: string) => string | undefined): Dec {
  const quote = quoteCurrencyOf(code);
  if (quote === 'USD' || quote === 'USDT') return dec(1);
  const inverse = midOf(`USD${quote}`);
  if (inverse && dec(inverse).gt(0)) return dec(1).div(inverse);
  const direct = midOf(`${quote}USD`);
  if (direct && dec(direct).gt(0)) return dec(direct);
  return dec(1);
}

export interface Estimate {
  margin: Dec;
  fee: Dec;
}

/** Estimated margin and fee with the contract formulas, the symbol's terms and trade_fee_type. */
export function estimateOrder(
  symbol: TradeSymbol,
  tradeFeeType: number,
  lots: string,
  price: string,
  leverage: number,
  quoteToUsd: Dec,
): Estimate | null {
  if (!isDecimal(lots) || !isDecimal(price) || !leverage || dec(lots).lte(0) || dec(price).lte(0)) return null;
  const terms = {
    contractSize: symbol.ForexContNum,
    marginMode: symbol.MarginMode,
    fixedMargin: symbol.FixedMargin,
    feeRate: symbol.ForexFeeRate,
  };
  const margin = marginOf(terms, lots, price, leverage, quoteToUsd);
  return { margin, fee: feeOf(terms, tradeFeeType, lots, margin) };
}

/** The lots one step up or down, kept within [min, max] and on the step grid. */
export function stepLots(value: string, symbol: Pick<TradeSymbol, 'Pip' | 'ForexMinCont' | 'ForexMaxCont'>, direction: 1 | -1): string {
  const step = dec(symbol.Pip);
  const min = dec(symbol.ForexMinCont);
  const max = dec(symbol.ForexMaxCont);
  const current = isDecimal(value) ? dec(value) : min;
  const snapped = current
    .div(step)
    .toDecimalPlaces(0, direction > 0 ? D.ROUND_FLOOR : D.ROUND_CEIL)
    .mul(step);
  let next = snapped.plus(step.mul(direction));
  if (direction > 0 && snapped.lt(current)) next = snapped.plus(step);
  next = D.min(max, D.max(min, next));
  return next.toFixed(decimalsOf(symbol.Pip));
}

export const decimalsOf = (value: string): number => value.split('.')[1]?.length ?? 0;

export type LotsProblem = 'required' | 'min' | 'max' | 'step' | null;

export function lotsProblem(value: string, symbol: Pick<TradeSymbol, 'Pip' | 'ForexMinCont' | 'ForexMaxCont'>): LotsProblem {
  if (!value.trim()) return 'required';
  if (!isDecimal(value)) return 'step';
  const lots = dec(value);
  if (lots.lt(symbol.ForexMinCont)) return 'min';
  if (lots.gt(symbol.ForexMaxCont)) return 'max';
  if (!lots.mod(symbol.Pip).isZero()) return 'step';
  return null;
}

export const isBuy = (orderType: number): boolean => orderType === OrderType.BUY;
