import { OrderType } from '@tp/contract/constants';
import { type Dec, ZERO } from '@tp/contract/decimal';
import type { PositionTerms } from './figures.ts';

/**
 * One side of a symbol's open client positions: their count, lots, units (lots x contract size) and
 * Σ open price x units, the open price moved by the position's markup (a long's raised by its bid
 * markup, a short's lowered by its ask markup), so that the clients' floating profit is bid x units
 * less it (longs) and it less ask x units (shorts).
 */
export interface SideTotals {
  positions: number;
  lots: Dec;
  units: Dec;
  openValue: Dec;
}
export interface SymbolTotals {
  long: SideTotals;
  short: SideTotals;
}

const emptySide = (): SideTotals => ({ positions: 0, lots: ZERO, units: ZERO, openValue: ZERO });

/**
 * The dealer's desk's sums per symbol and side, kept as positions enter, change and leave the engine's
 * books, so that the desk's figures cost one step per symbol, not per position (every sum is exact:
 * prices, lots and contract sizes have few decimals, and the decimals' precision is 40 digits).
 */
export class DeskTotals {
  /** Real accounts' positions, then demo accounts'. */
  private readonly kinds = [new Map<number, SymbolTotals>(), new Map<number, SymbolTotals>()] as const;

  of(isDemo: boolean): ReadonlyMap<number, SymbolTotals> {
    return this.kinds[isDemo ? 1 : 0];
  }

  add(isDemo: boolean, p: PositionTerms): void {
    this.move(this.kinds[isDemo ? 1 : 0], p, 1);
  }

  remove(isDemo: boolean, p: PositionTerms): void {
    this.move(this.kinds[isDemo ? 1 : 0], p, -1);
  }

  clear(): void {
    for (const map of this.kinds) map.clear();
  }

  private move(map: Map<number, SymbolTotals>, p: PositionTerms, sign: 1 | -1): void {
    let totals = map.get(p.symbolId);
    if (!totals) map.set(p.symbolId, (totals = { long: emptySide(), short: emptySide() }));
    const side = p.orderType === OrderType.BUY ? totals.long : totals.short;
    const units = p.quantity.mul(p.contractSize);
    const open = !p.markup ? p.openPrice : side === totals.long ? p.openPrice.plus(p.markup.bid) : p.openPrice.minus(p.markup.ask);
    side.positions += sign;
    if (sign > 0) {
      side.lots = side.lots.plus(p.quantity);
      side.units = side.units.plus(units);
      side.openValue = side.openValue.plus(open.mul(units));
    } else {
      side.lots = side.lots.minus(p.quantity);
      side.units = side.units.minus(units);
      side.openValue = side.openValue.minus(open.mul(units));
    }
    if (totals.long.positions === 0 && totals.short.positions === 0) map.delete(p.symbolId);
  }
}

/** The same sums over a list of positions (a server that does not run the engine reads them from the database). */
export function totalsOf(positions: Iterable<PositionTerms>): Map<number, SymbolTotals> {
  const totals = new DeskTotals();
  for (const p of positions) totals.add(false, p);
  return new Map(totals.of(false));
}
