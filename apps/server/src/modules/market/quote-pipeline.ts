import { D, type Dec } from '@tp/contract/decimal';
import type { MarketSymbol } from './repository.ts';

/** Ticks in a row, after a suspect one, that must lie within the threshold of its level before it is traded on. */
export const CONFIRM_TICKS = 2;

/**
 * The symbol's markup on a source quote, in price units: bid - spread/2 rounded down and
 * ask + spread/2 rounded up at the symbol's precision, so a trader never pays less than the spread.
 */
export function markUp(s: Pick<MarketSymbol, 'spread' | 'pricePrecision'>, bid: Dec, ask: Dec): { bid: Dec; ask: Dec } {
  const half = s.spread.div(2);
  return {
    bid: bid.minus(half).toDecimalPlaces(s.pricePrecision, D.ROUND_FLOOR),
    ask: ask.plus(half).toDecimalPlaces(s.pricePrecision, D.ROUND_CEIL),
  };
}

const within = (mid: Dec, level: Dec, pct: Dec): boolean => mid.minus(level).abs().lte(level.times(pct).div(100));

interface Suspect {
  level: Dec;
  confirmations: number;
  /** When the filter first held it (the tick's time). */
  since: number;
}

/**
 * The longest a suspect level is held: the first tick after it is traded on whatever its level, so
 * a market that really moved (and ticks sparsely) is not refused for long, while the symbol stays
 * paused until the filter has decided.
 */
export const SUSPECT_HOLD_MS = 5_000;

/**
 * The deviation filter (PRICE-INTEGRITY.md): a mid more than the symbol's threshold away from the
 * last accepted mid is held as suspect; it is accepted once CONFIRM_TICKS ticks in a row stay within
 * the threshold of the suspect level, forgotten when a tick comes back near the accepted mid, and
 * resolved by the first tick after SUSPECT_HOLD_MS whatever its level. While a suspect is held the
 * last accepted price may be wrong, so the symbol is not traded (`pending`).
 */
export class DeviationFilter {
  private readonly suspects = new Map<number, Suspect>();
  private readonly held = new Map<number, number>();

  /** True when the tick may be traded on; false when it is held. */
  admit(symbolId: number, thresholdPct: Dec, accepted: Dec | undefined, mid: Dec, now: number = Date.now()): boolean {
    if (!accepted || thresholdPct.lte(0) || within(mid, accepted, thresholdPct)) {
      this.suspects.delete(symbolId);
      return true;
    }
    const suspect = this.suspects.get(symbolId);
    if (suspect && now - suspect.since >= SUSPECT_HOLD_MS) {
      this.suspects.delete(symbolId);
      return true;
    }
    if (suspect && within(mid, suspect.level, thresholdPct)) {
      suspect.confirmations++;
      if (suspect.confirmations >= CONFIRM_TICKS) {
        this.suspects.delete(symbolId);
        return true;
      }
    } else {
      this.suspects.set(symbolId, { level: mid, confirmations: 0, since: suspect?.since ?? now });
    }
    this.held.set(symbolId, this.suspectTicks(symbolId) + 1);
    return false;
  }

  /** True while a suspect level of the symbol waits for the filter's decision. */
  pending(symbolId: number): boolean {
    return this.suspects.has(symbolId);
  }

  /** The symbols whose suspect level waits for a decision. */
  pendingIds(): number[] {
    return [...this.suspects.keys()];
  }

  /** Ticks held as suspect since start. */
  suspectTicks(symbolId: number): number {
    return this.held.get(symbolId) ?? 0;
  }
}
