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
 * The dealer's desk's sums per account group, symbol and side, kept as positions enter, change and
 * leave the engine's books, so that the desk's figures cost one step per group and symbol, not per
 * position (every sum is exact: prices, lots and contract sizes have few decimals, and the decimals'
 * precision is 40 digits). A position counts in its account's group; a move re-files it.
 */
export class DeskTotals {
  /** Real accounts' positions, then demo accounts': per group, per symbol. */
  private readonly kinds = [new Map<number, Map<number, SymbolTotals>>(), new Map<number, Map<number, SymbolTotals>>()] as const;

  /** Every group's sums together, per symbol. */
  of(isDemo: boolean): Map<number, SymbolTotals> {
    const all = new Map<number, SymbolTotals>();
    for (const byGroup of this.kinds[isDemo ? 1 : 0].values()) {
      for (const [symbolId, t] of byGroup) {
        const sum = all.get(symbolId) ?? { long: emptySide(), short: emptySide() };
        all.set(symbolId, { long: plusSide(sum.long, t.long), short: plusSide(sum.short, t.short) });
      }
    }
    return all;
  }

  /** The sums per group (groups with open positions only). */
  byGroup(isDemo: boolean): ReadonlyMap<number, ReadonlyMap<number, SymbolTotals>> {
    return this.kinds[isDemo ? 1 : 0];
  }

  add(isDemo: boolean, groupId: number, p: PositionTerms): void {
    this.move(this.kinds[isDemo ? 1 : 0], groupId, p, 1);
  }

  remove(isDemo: boolean, groupId: number, p: PositionTerms): void {
    this.move(this.kinds[isDemo ? 1 : 0], groupId, p, -1);
  }

  clear(): void {
    for (const map of this.kinds) map.clear();
  }

  private move(groups: Map<number, Map<number, SymbolTotals>>, groupId: number, p: PositionTerms, sign: 1 | -1): void {
    let map = groups.get(groupId);
    if (!map) groups.set(groupId, (map = new Map()));
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
    if (!map.size) groups.delete(groupId);
  }
}

const plusSide = (a: SideTotals, b: SideTotals): SideTotals => ({
  positions: a.positions + b.positions,
  lots: a.lots.plus(b.lots),
  units: a.units.plus(b.units),
  openValue: a.openValue.plus(b.openValue),
});

/**
 * The same sums over a list of positions (a server that does not run the engine reads them from the
 * database), with each position's group when `groupOf` is given.
 */
export function totalsOf<P extends PositionTerms>(positions: Iterable<P>, groupOf?: (p: P) => number): DeskTotals {
  const totals = new DeskTotals();
  for (const p of positions) totals.add(false, groupOf?.(p) ?? 0, p);
  return totals;
}
