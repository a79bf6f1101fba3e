import { D, type Dec, ZERO, dec, money } from '@tp/contract/decimal';
import { type AccountFigures, accountFigures, closePriceFor, profitOf } from '@tp/contract/formulas';
import { OrderType } from '@tp/contract/constants';

/** What figures need of an open position (exact decimals). */
export interface PositionTerms {
  symbolId: number;
  orderType: number;
  quantity: Dec;
  openPrice: Dec;
  contractSize: Dec;
  margin: Dec;
}

/** Current prices, as the market module offers them. */
export interface PriceBoard {
  quote(symbolId: number): { bid: string; ask: string; mid: string } | undefined;
  quoteToUsd(symbolId: number): Dec;
}

/** A position's close price now and its floating profit in USD (0 before the symbol's first quote). */
export function floatingOf(p: PositionTerms, prices: PriceBoard): { closePrice: Dec | null; profit: Dec } {
  const q = prices.quote(p.symbolId);
  if (!q) return { closePrice: null, profit: ZERO };
  const closePrice = closePriceFor(p.orderType, q.bid, q.ask);
  return { closePrice, profit: profitOf(p.orderType, p.openPrice, closePrice, p.quantity, p.contractSize, prices.quoteToUsd(p.symbolId)) };
}

export interface Figures extends AccountFigures {
  /** Margin of open positions (lock_balance less pending reservations). */
  openMargin: Dec;
}

export function figuresOf(balance: Dec, lockBalance: Dec, positions: Iterable<PositionTerms>, prices: PriceBoard): Figures {
  let floating = ZERO;
  let openMargin = ZERO;
  for (const p of positions) {
    floating = floating.plus(floatingOf(p, prices).profit);
    openMargin = openMargin.plus(p.margin);
  }
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

const SAFETY = new D('0.9');

function slopesOf(positions: Iterable<PositionTerms>, prices: PriceBoard): [number, Dec][] {
  const slopes = new Map<number, Dec>();
  for (const p of positions) {
    const dir = p.orderType === OrderType.BUY ? 1 : -1;
    const slope = p.quantity.mul(p.contractSize).mul(prices.quoteToUsd(p.symbolId)).mul(dir);
    slopes.set(p.symbolId, (slopes.get(p.symbolId) ?? ZERO).plus(slope));
  }
  return [...slopes].filter(([, s]) => !s.isZero());
}

/**
 * Where each symbol's mid would have to go for the risk rate to reach `levelPercent`, the others
 * unchanged. Equity is linear in each price (for a fixed conversion rate).
 * - 'down': the cushion above the level is split between the account's symbols, with a safety
 *   margin, so that as long as no line is crossed the moves together cannot have used it up;
 *   'breached' when the level is reached now.
 * - 'up': for an account below the level, the price at which each symbol alone would lift it back
 *   above; 'breached' when it is above already.
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
  const moving = slopesOf(positions, prices);
  const share = way === 'down' ? cushion.mul(SAFETY).div(moving.length || 1) : cushion.neg();
  const lines: RiskLine[] = [];
  for (const [symbolId, slope] of moving) {
    const q = prices.quote(symbolId);
    if (!q) continue;
    const distance = share.div(slope.abs());
    // Going down, the adverse direction: a long position loses when the price falls.
    const rising = way === 'down' ? slope.isNegative() : slope.isPositive();
    const level = rising ? dec(q.mid).plus(distance) : dec(q.mid).minus(distance);
    if (!rising && level.lte(0)) continue;
    lines.push({ symbolId, level: level.toNumber(), rising });
  }
  return lines;
}
