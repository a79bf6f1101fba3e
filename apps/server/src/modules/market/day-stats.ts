import { D, type Dec, dec } from '@tp/contract/decimal';
import type { Bar } from './repository.ts';

const HOUR_MS = 3_600_000;
/** The current hour and the 23 before it: the 24-hour window. */
const WINDOW_HOURS = 24;

interface HourBucket {
  hour: number;
  open: string;
  high: Dec;
  low: Dec;
  volume: Dec;
}

export interface DayFigures {
  open: string;
  high: Dec;
  low: Dec;
  volume: Dec;
}

/** Rolling 24-hour open, high, low and volume of one symbol, kept in hourly buckets. */
export class RollingDay {
  private buckets: HourBucket[] = [];
  private figures: DayFigures | null = null;

  /** Starts from stored hourly bars, oldest first. */
  seed(bars: Bar[]): void {
    this.buckets = bars.map((b) => ({ hour: b.time, open: b.open, high: dec(b.high), low: dec(b.low), volume: dec(b.volume) }));
    this.figures = null;
  }

  /** Adds a tick; `previous` is the price before it, which a new hour opens at. */
  add(price: string, priceD: Dec, volume: Dec, time: number, previous?: string): DayFigures {
    const hour = Math.floor(time / HOUR_MS) * HOUR_MS;
    const last = this.buckets[this.buckets.length - 1];
    if (last && hour < last.hour) return this.current(priceD, price);
    if (!last || hour > last.hour) {
      const openD = previous === undefined ? priceD : dec(previous);
      this.buckets.push({ hour, open: previous ?? price, high: D.max(openD, priceD), low: D.min(openD, priceD), volume });
      const oldest = hour - (WINDOW_HOURS - 1) * HOUR_MS;
      while (this.buckets.length && this.buckets[0]!.hour < oldest) this.buckets.shift();
      this.figures = null;
    } else {
      if (priceD.gt(last.high)) last.high = priceD;
      if (priceD.lt(last.low)) last.low = priceD;
      last.volume = last.volume.plus(volume);
      if (this.figures) {
        if (priceD.gt(this.figures.high)) this.figures.high = priceD;
        if (priceD.lt(this.figures.low)) this.figures.low = priceD;
        this.figures.volume = this.figures.volume.plus(volume);
      }
    }
    return this.current(priceD, price);
  }

  /** The window's figures; with no history yet, the given price alone. */
  current(priceD: Dec, price: string): DayFigures {
    if (!this.buckets.length) return { open: price, high: priceD, low: priceD, volume: dec(0) };
    if (!this.figures) {
      let high = this.buckets[0]!.high;
      let low = this.buckets[0]!.low;
      let volume = dec(0);
      for (const b of this.buckets) {
        if (b.high.gt(high)) high = b.high;
        if (b.low.lt(low)) low = b.low;
        volume = volume.plus(b.volume);
      }
      this.figures = { open: this.buckets[0]!.open, high, low, volume };
    }
    return this.figures;
  }
}
