import { BASE_BARS_PER_BAR, derivedBarStart, type DerivedPeriodName } from '@tp/contract/chart-periods';
import { dec } from '@tp/contract/decimal';
import type { Bar } from './repository.ts';

/** Open time of the derived bar after the one opening at `start` (months differ in length). */
export function nextDerivedStart(period: DerivedPeriodName, start: number): number {
  return derivedBarStart(period, start + BASE_BARS_PER_BAR[period] * (period === '240min' ? 3_600_000 : 86_400_000) + 1);
}

/** The base-period window that holds the derived bars asked for: `before` exclusive, `end` inclusive. */
export function baseWindow(period: DerivedPeriodName, q: { before?: number; end?: number }): { before?: number; end?: number } {
  const bucketEnd = (ms: number) => nextDerivedStart(period, derivedBarStart(period, ms));
  const before = q.before === undefined ? undefined : derivedBarStart(period, q.before) === q.before ? q.before : bucketEnd(q.before);
  const end = q.end === undefined ? undefined : bucketEnd(q.end) - 1;
  return { before, end };
}

/**
 * Groups base bars (oldest first) into derived bars: open of the first, close of the last, the
 * highest high, the lowest low and the summed volume.
 */
export function aggregateBars(period: DerivedPeriodName, base: Bar[]): Bar[] {
  const out: Bar[] = [];
  for (const b of base) {
    const time = derivedBarStart(period, b.time);
    const last = out[out.length - 1];
    if (!last || last.time !== time) {
      out.push({ ...b, time });
      continue;
    }
    if (dec(b.high).gt(last.high)) last.high = b.high;
    if (dec(b.low).lt(last.low)) last.low = b.low;
    last.close = b.close;
    last.volume = dec(last.volume).plus(b.volume).toString();
  }
  return out;
}
