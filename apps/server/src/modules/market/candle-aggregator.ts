import { PERIODS, type PeriodName } from '@tp/contract/constants';
import { type Dec, dec } from '@tp/contract/decimal';
import type { Bar, StoredBar } from './repository.ts';

const PERIOD_MS = PERIODS.map((p) => ({ period: p.period, ms: p.seconds * 1000 }));

/** Bar open time of an instant: epoch ms floored to the period, in UTC. */
export const barTimeOf = (period: PeriodName, time: number): number => {
  const ms = PERIOD_MS.find((p) => p.period === period)!.ms;
  return Math.floor(time / ms) * ms;
};

interface LiveBar {
  time: number;
  open: string;
  high: string;
  highD: Dec;
  low: string;
  lowD: Dec;
  close: string;
  volume: Dec;
}

const keyOf = (symbolId: number, period: string) => `${symbolId}|${period}`;

const toBar = (b: LiveBar): Bar => ({ time: b.time, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume.toString() });

/**
 * Builds the bars of every period from ticks, in memory. Changed bars wait in `dirty` until the
 * flusher writes them in a batch, so a tick never waits for the database.
 */
export class CandleAggregator {
  private readonly live = new Map<string, LiveBar>();
  private dirty = new Map<string, { symbolId: number; period: string; bar: LiveBar }>();

  /** Continues from the newest stored bars (after a restart). */
  restore(bars: StoredBar[]): void {
    for (const b of bars) {
      const key = keyOf(b.symbolId, b.period);
      const current = this.live.get(key);
      if (current && current.time >= b.time) continue;
      this.live.set(key, { ...b, highD: dec(b.high), lowD: dec(b.low), volume: dec(b.volume) });
    }
  }

  /** Adds one tick's price to every period; returns the forming bar of each period that moved. */
  update(symbolId: number, price: string, time: number, volume: Dec): { period: PeriodName; bar: Bar }[] {
    const priceD = dec(price);
    const changed: { period: PeriodName; bar: Bar }[] = [];
    for (const { period, ms } of PERIOD_MS) {
      const key = keyOf(symbolId, period);
      const barTime = Math.floor(time / ms) * ms;
      let bar = this.live.get(key);
      if (bar && barTime < bar.time) continue;
      if (!bar || barTime > bar.time) {
        bar = { time: barTime, open: price, high: price, highD: priceD, low: price, lowD: priceD, close: price, volume: volume };
        this.live.set(key, bar);
      } else {
        if (priceD.gt(bar.highD)) {
          bar.high = price;
          bar.highD = priceD;
        }
        if (priceD.lt(bar.lowD)) {
          bar.low = price;
          bar.lowD = priceD;
        }
        bar.close = price;
        bar.volume = bar.volume.plus(volume);
      }
      this.dirty.set(`${key}|${barTime}`, { symbolId, period, bar });
      changed.push({ period, bar: toBar(bar) });
    }
    return changed;
  }

  /** The bar now forming for a symbol and period (the newest known bar). */
  forming(symbolId: number, period: string): Bar | undefined {
    const bar = this.live.get(keyOf(symbolId, period));
    return bar && toBar(bar);
  }

  /** Changed bars not yet written, of one symbol and period. */
  unwritten(symbolId: number, period: string): Bar[] {
    const out: Bar[] = [];
    for (const d of this.dirty.values()) if (d.symbolId === symbolId && d.period === period) out.push(toBar(d.bar));
    return out;
  }

  /** Hands the changed bars to the flusher and forgets them. */
  takeDirty(): StoredBar[] {
    const taken = this.dirty;
    this.dirty = new Map();
    return [...taken.values()].map((d) => ({ symbolId: d.symbolId, period: d.period, ...toBar(d.bar) }));
  }

  /** Puts back bars whose write failed, unless a newer change of them is already waiting. */
  giveBack(bars: StoredBar[]): void {
    for (const b of bars) {
      const key = `${keyOf(b.symbolId, b.period)}|${b.time}`;
      if (!this.dirty.has(key)) {
        this.dirty.set(key, {
          symbolId: b.symbolId,
          period: b.period,
          bar: { ...b, highD: dec(b.high), lowD: dec(b.low), volume: dec(b.volume) },
        });
      }
    }
  }
}
