import { D, type Dec, ZERO, money } from '@tp/contract/decimal';
import { type AccountFigures, type Markup, accountFigures, closePriceFor, profitOf } from '@tp/contract/formulas';
import { OrderType } from '@tp/contract/constants';

/** What figures need of an open position (exact decimals). */
export interface PositionTerms {
  symbolId: number;
  orderType: number;
  quantity: Dec;
  openPrice: Dec;
  contractSize: Dec;
  margin: Dec;
  /** The group's spread markup the position trades with (absent: none). */
  markup?: Markup | null;
}

/** The symbol whose mid converts a symbol's quote currency to USD (rate = mid, or 1 / mid when inverted). */
export interface Conversion {
  symbolId: number;
  invert: boolean;
}

/** Current prices, as the market module offers them. */
export interface PriceBoard {
  quote(symbolId: number): { bid: string; ask: string; mid: string } | undefined;
  quoteToUsd(symbolId: number): Dec;
  /** Absent: every symbol converts at a fixed rate (unit tests). */
  conversionOf?(symbolId: number): Conversion | null;
}

/** A position's close price now and its floating profit in USD (0 before the symbol's first quote). */
export function floatingOf(p: PositionTerms, prices: PriceBoard): { closePrice: Dec | null; profit: Dec } {
  const q = prices.quote(p.symbolId);
  if (!q) return { closePrice: null, profit: ZERO };
  const closePrice = closePriceFor(p.orderType, q.bid, q.ask, p.markup);
  return { closePrice, profit: profitOf(p.orderType, p.openPrice, closePrice, p.quantity, p.contractSize, prices.quoteToUsd(p.symbolId)) };
}

export interface Figures extends AccountFigures {
  /** Margin of open positions (lock_balance less pending reservations). */
  openMargin: Dec;
}

/**
 * The margin required by open positions: per symbol, the larger of its long side's and its short
 * side's margins (a hedge needs no more margin than the side it hedges).
 */
export function requiredMargin(positions: Iterable<Pick<PositionTerms, 'symbolId' | 'orderType' | 'margin'>>): Dec {
  const sides = new Map<number, { long: Dec; short: Dec }>();
  for (const p of positions) {
    const side = sides.get(p.symbolId) ?? { long: ZERO, short: ZERO };
    if (p.orderType === OrderType.BUY) side.long = side.long.plus(p.margin);
    else side.short = side.short.plus(p.margin);
    sides.set(p.symbolId, side);
  }
  let total = ZERO;
  for (const { long, short } of sides.values()) total = total.plus(D.max(long, short));
  return total;
}

/** True when opening `order` next to `positions` raises the margin required (it adds exposure). */
export const raisesMargin = (positions: PositionTerms[], order: Pick<PositionTerms, 'symbolId' | 'orderType' | 'margin'>): boolean =>
  requiredMargin([...positions, order]).gt(requiredMargin(positions));

export function figuresOf(balance: Dec, lockBalance: Dec, positions: Iterable<PositionTerms>, prices: PriceBoard): Figures {
  let floating = ZERO;
  const list = [...positions];
  for (const p of list) floating = floating.plus(floatingOf(p, prices).profit);
  const openMargin = requiredMargin(list);
  return { ...accountFigures(balance, lockBalance, openMargin, money(floating)), openMargin };
}

/** True when the account's risk rate is at or below `levelPercent` (never while nothing is open). */
export const atOrBelow = (f: Figures, levelPercent: Dec): boolean => f.riskRate !== null && f.riskRate.lte(levelPercent);

export interface RiskLine {
  symbolId: number;
  /** Mid price at which the account should be looked at again. */
  level: number;
  rising: boolean;
}

const SAFETY = 0.9;
/**
 * A symbol and its conversion symbol move the equity together (profit in GBP x the GBPUSD mid): on
 * top of each one's share, their product. Lines of such drivers stay within this relative move,
 * so that the product stays a small part of the safety margin.
 */
const COUPLED_MOVE = 0.05;

/**
 * Equity as a function of one price driver's mid x, the other prices fixed: K + B x + C / x.
 * A symbol's own mid moves its positions' profit linearly; a conversion symbol's mid moves the
 * profit of the symbols converted through it linearly (rate = mid) or as 1 / x (rate = 1 / mid,
 * also when a symbol converts through itself, as USDJPY does).
 */
interface Driver {
  x0: number;
  b: number;
  c: number;
  coupled: boolean;
}

function driversOf(positions: Iterable<PositionTerms>, prices: PriceBoard): Map<number, Driver> {
  const drivers = new Map<number, Driver>();
  const add = (symbolId: number, b: number, c: number, coupled = false) => {
    const q = prices.quote(symbolId);
    if (!q) return;
    const d = drivers.get(symbolId) ?? { x0: +q.mid, b: 0, c: 0, coupled: false };
    d.b += b;
    d.c += c;
    d.coupled ||= coupled;
    drivers.set(symbolId, d);
  };
  for (const p of positions) {
    const q = prices.quote(p.symbolId);
    if (!q) continue;
    const units = p.quantity.mul(p.contractSize).toNumber() * (p.orderType === OrderType.BUY ? 1 : -1);
    const close = p.markup
      ? closePriceFor(p.orderType, q.bid, q.ask, p.markup).toNumber()
      : +(p.orderType === OrderType.BUY ? q.bid : q.ask);
    const open = p.openPrice.toNumber();
    const conv = prices.conversionOf?.(p.symbolId) ?? null;
    if (conv?.symbolId === p.symbolId && conv.invert) {
      // units x (x + offset - open) / x: a constant and a 1 / x term.
      add(p.symbolId, 0, units * (close - +q.mid - open));
      continue;
    }
    const coupled = conv !== null && conv.symbolId !== p.symbolId;
    add(p.symbolId, units * prices.quoteToUsd(p.symbolId).toNumber(), 0, coupled);
    if (!coupled) continue;
    const quoteProfit = units * (close - open);
    add(conv.symbolId, conv.invert ? 0 : quoteProfit, conv.invert ? quoteProfit : 0, true);
  }
  for (const [id, d] of drivers) if (d.b === 0 && d.c === 0 && !d.coupled) drivers.delete(id);
  return drivers;
}

/** The nearest mids below and above x0 at which K + B x + C / x moves by `delta` from its value at x0. */
function crossings({ x0, b, c }: Driver, delta: number): { below: number | null; above: number | null } {
  // E(x) = E0 + delta  <=>  B x^2 + k x + C = 0 (x > 0), where K = E0 - B x0 - C / x0 and k = K - E0 - delta.
  const k = -b * x0 - c / x0 - delta;
  const roots =
    b === 0
      ? k === 0
        ? []
        : [-c / k]
      : (() => {
          const disc = k * k - 4 * b * c;
          if (disc < 0) return [];
          const r = Math.sqrt(disc);
          return [(-k - r) / (2 * b), (-k + r) / (2 * b)];
        })();
  let below: number | null = null;
  let above: number | null = null;
  for (const x of roots) {
    if (!(x > 0) || !Number.isFinite(x)) continue;
    if (x < x0 && (below === null || x > below)) below = x;
    if (x > x0 && (above === null || x < above)) above = x;
  }
  return { below, above };
}

/**
 * Where each price driver's mid (the account's symbols and their conversion symbols) would have
 * to go for the risk rate to reach `levelPercent`, the others unchanged.
 * - 'down': the cushion above the level is split between the drivers, with a safety margin, so
 *   that as long as no line is crossed the moves together cannot have used it up; 'breached'
 *   when the level is reached now.
 * - 'up': for an account below the level, the prices at which each driver alone would lift it
 *   back above; 'breached' when it is above already.
 */
export function riskLines(
  figures: Figures,
  levelPercent: Dec,
  positions: Iterable<PositionTerms>,
  prices: PriceBoard,
  way: 'down' | 'up' = 'down',
): RiskLine[] | 'breached' {
  if (figures.openMargin.isZero()) return [];
  const cushion = figures.equity.minus(figures.openMargin.mul(levelPercent).div(100));
  if (way === 'down' ? cushion.lte(0) : cushion.gt(0)) return 'breached';
  const drivers = driversOf(positions, prices);
  // The equity change at which to look again: a share of the cushion going down, all of it going up.
  const delta = way === 'down' ? -(cushion.toNumber() * SAFETY) / (drivers.size || 1) : -cushion.toNumber();
  const lines: RiskLine[] = [];
  for (const [symbolId, d] of drivers) {
    let { below, above } = crossings(d, delta);
    if (d.coupled && way === 'down') {
      below = Math.max(below ?? 0, d.x0 * (1 - COUPLED_MOVE));
      above = Math.min(above ?? Infinity, d.x0 * (1 + COUPLED_MOVE));
    }
    if (below !== null) lines.push({ symbolId, level: below, rising: false });
    if (above !== null) lines.push({ symbolId, level: above, rising: true });
  }
  return lines;
}
