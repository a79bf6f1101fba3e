import { D, type Dec, type DecInput, dec, money } from './decimal.ts';
import { MarginMode, OrderType, SwapType, TradeFeeType } from './constants.ts';

/**
 * The trading formulas of TRADING-RULES.md, written once: the server charges with them and the
 * web app estimates with them. Amounts in the symbol's quote currency are converted to USD by
 * `quoteToUsd` (1 for USD-quoted symbols).
 */
export interface SymbolTerms {
  contractSize: DecInput; // ForexContNum
  marginMode: number; // MarginMode
  fixedMargin?: DecInput | null; // per lot, USD, MarginMode 2
  feeRate: DecInput; // ForexFeeRate
}

export function marginOf(terms: SymbolTerms, lots: DecInput, price: DecInput, leverage: DecInput, quoteToUsd: DecInput = 1): Dec {
  if (terms.marginMode === MarginMode.FIXED) return money(dec(lots).mul(terms.fixedMargin ?? 0));
  return money(dec(lots).mul(terms.contractSize).mul(price).div(leverage).mul(quoteToUsd));
}

export function feeOf(terms: SymbolTerms, tradeFeeType: number, lots: DecInput, margin: DecInput): Dec {
  if (tradeFeeType === TradeFeeType.PER_LOT) return money(dec(lots).mul(terms.feeRate));
  return money(dec(margin).mul(terms.feeRate));
}

export function profitOf(
  orderType: number,
  openPrice: DecInput,
  closePrice: DecInput,
  lots: DecInput,
  contractSize: DecInput,
  quoteToUsd: DecInput = 1,
): Dec {
  const diff = orderType === OrderType.BUY ? dec(closePrice).minus(openPrice) : dec(openPrice).minus(closePrice);
  return money(diff.mul(lots).mul(contractSize).mul(quoteToUsd));
}

/**
 * An account group's spread markup on a position, in price units: the bid it trades on is lowered by
 * `bid`, the ask raised by `ask` (the position keeps the markup it opened with).
 */
export interface Markup {
  bid: DecInput;
  ask: DecInput;
}

/** A group's markup of `points` (at the symbol's precision) split over the two sides: the bid takes the smaller half, the ask the rest. Null for none. */
export function markupOf(points: number, pricePrecision: number): { bid: Dec; ask: Dec } | null {
  if (!points) return null;
  const point = new D(10).pow(-pricePrecision);
  const below = Math.floor(points / 2);
  return { bid: point.mul(below), ask: point.mul(points - below) };
}

/** A buy opens at the ask and closes at the bid; a sell opens at the bid and closes at the ask (with the position's markup, if any, on top). */
export const openPriceFor = (orderType: number, bid: DecInput, ask: DecInput, markup?: Markup | null): Dec =>
  orderType === OrderType.BUY ? (markup ? dec(ask).plus(markup.ask) : dec(ask)) : markup ? dec(bid).minus(markup.bid) : dec(bid);
export const closePriceFor = (orderType: number, bid: DecInput, ask: DecInput, markup?: Markup | null): Dec =>
  orderType === OrderType.BUY ? (markup ? dec(bid).minus(markup.bid) : dec(bid)) : markup ? dec(ask).plus(markup.ask) : dec(ask);

export interface AccountFigures {
  balance: Dec;
  lockBalance: Dec;
  floatingProfit: Dec;
  equity: Dec;
  freeMargin: Dec;
  /** Percent; null when no position is open. */
  riskRate: Dec | null;
  prepaymentRatio: Dec | null;
}

export function accountFigures(balance: DecInput, lockBalance: DecInput, openMargin: DecInput, floatingProfit: DecInput): AccountFigures {
  const bal = dec(balance);
  const lock = dec(lockBalance);
  const fp = dec(floatingProfit);
  const equity = bal.plus(lock).plus(fp);
  const om = dec(openMargin);
  return {
    balance: bal,
    lockBalance: lock,
    floatingProfit: fp,
    equity: money(equity),
    freeMargin: money(equity.minus(lock)),
    riskRate: om.isZero() ? null : equity.div(om).mul(100).toDecimalPlaces(2, D.ROUND_HALF_EVEN),
    prepaymentRatio: om.isZero() || equity.lte(0) ? null : om.div(equity).mul(100).toDecimalPlaces(2, D.ROUND_HALF_EVEN),
  };
}

/**
 * Withdrawal: fee_type 1 fixed fee of draw_rate USD, otherwise draw_rate percent (USD, to 6 decimals);
 * received = (amount - fee) x units per USD (the spec's usd_price) in the currency's own decimals,
 * and never below 0 (the fee never exceeds the amount).
 */
export function withdrawalOf(
  amount: DecInput,
  feeType: number,
  drawRate: DecInput,
  unitsPerUsd: DecInput,
  decimals: number,
): { fee: Dec; paidUsd: Dec; received: Dec } {
  const fee = D.min(amount, money(feeType === 1 ? dec(drawRate) : dec(amount).mul(drawRate).div(100)));
  const paidUsd = dec(amount).minus(fee);
  const received = paidUsd.mul(unitsPerUsd).toDecimalPlaces(decimals, D.ROUND_HALF_EVEN);
  return { fee, paidUsd, received };
}

/** Where take-profit and stop-loss may sit, relative to the price the position would close at. */
export function stopsValid(
  orderType: number,
  closePrice: DecInput,
  takeProfit?: DecInput | null,
  stopLoss?: DecInput | null,
): { tp: boolean; sl: boolean } {
  const c = dec(closePrice);
  const isBuy = orderType === OrderType.BUY;
  const tp = takeProfit == null || dec(takeProfit).isZero() || (isBuy ? dec(takeProfit).gt(c) : dec(takeProfit).lt(c));
  const sl = stopLoss == null || dec(stopLoss).isZero() || (isBuy ? dec(stopLoss).lt(c) : dec(stopLoss).gt(c));
  return { tp, sl };
}

export interface SwapTerms {
  swapType: number; // SwapType
  swapLong: DecInput;
  swapShort: DecInput;
  pricePrecision: number;
  contractSize: DecInput;
}

/**
 * The swap of one rollover (times `days`: 3 on the triple day) in USD; positive is credited, negative
 * charged. Points: rate x one point (10^-precision) x lots x contract size. Percent a year: rate % of
 * the position's value at its open price, over 360 days.
 */
export function swapOf(
  terms: SwapTerms,
  orderType: number,
  lots: DecInput,
  openPrice: DecInput,
  days: number,
  quoteToUsd: DecInput = 1,
): Dec {
  const rate = dec(orderType === OrderType.BUY ? terms.swapLong : terms.swapShort);
  const units = dec(lots).mul(terms.contractSize).mul(days).mul(quoteToUsd);
  if (terms.swapType === SwapType.POINTS) return money(rate.mul(dec(10).pow(-terms.pricePrecision)).mul(units));
  if (terms.swapType === SwapType.PERCENT_PER_YEAR) return money(rate.div(100).div(360).mul(openPrice).mul(units));
  return money(0);
}
