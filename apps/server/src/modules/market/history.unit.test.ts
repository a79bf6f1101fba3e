import { describe, expect, it } from 'vitest';
import { PERIODS } from '@tp/contract/constants';
import { dec } from '@tp/contract/decimal';
import { seedSymbols } from '../../platform/db/seed-data.ts';
import { generateBars } from './history.ts';
import { isMarketOpen } from './market-hours.ts';
import type { MarketSymbol } from './repository.ts';

const symbolOf = (code: string, id = 1): MarketSymbol => {
  const s = seedSymbols.find((x) => x.code === code)!;
  return {
    id,
    code,
    pricePrecision: s.pricePrecision,
    basePrice: s.basePrice,
    volatility: Number(s.volatility),
    ticksPerSecond: Number(s.ticksPerSecond),
    hours: { timezone: s.timezone!, schedule: s.schedule!, holidays: s.holidays! },
  } as MarketSymbol;
};
const period = (name: string) => PERIODS.find((p) => p.period === name)!;
// Saturday 21 Nov 2026 12:00 UTC.
const NOW = Date.UTC(2026, 10, 21, 12, 0);

describe('candle history', () => {
  it('generates the bars before now, continuous, ending at the current price', () => {
    const bars = generateBars(symbolOf('BTCUSDT'), period('15min'), { count: 500, endTime: NOW, lastClose: '95000.00', seed: 42 });
    expect(bars).toHaveLength(500);
    expect(bars.at(-1)!.time).toBe(NOW - 15 * 60_000);
    expect(bars.at(-1)!.close).toBe('95000.00');
    for (let i = 0; i < bars.length; i++) {
      const b = bars[i]!;
      expect(b.time % (15 * 60_000)).toBe(0);
      expect(dec(b.high).gte(dec(b.open)) && dec(b.high).gte(dec(b.close))).toBe(true);
      expect(dec(b.low).lte(dec(b.open)) && dec(b.low).lte(dec(b.close))).toBe(true);
      if (i > 0) {
        expect(b.time - bars[i - 1]!.time).toBe(15 * 60_000);
        expect(b.open).toBe(bars[i - 1]!.close);
      }
    }
  });

  it('skips the slots when the market is closed (no forex bars at the weekend)', () => {
    const eurusd = symbolOf('EURUSD');
    const bars = generateBars(eurusd, period('60min'), { count: 500, endTime: NOW, lastClose: '1.08500', seed: 42 });
    expect(bars).toHaveLength(500);
    // The newest bar is the last hour before Friday's 17:00 New York close (22:00 UTC in November).
    expect(bars.at(-1)!.time).toBe(Date.UTC(2026, 10, 20, 21, 0));
    for (const b of bars) expect(isMarketOpen(eurusd.hours, b.time)).toBe(true);
  });

  it('generates 500 daily bars going back far enough, the same for the same seed', () => {
    const a = generateBars(symbolOf('GER40'), period('1day'), { count: 500, endTime: NOW, lastClose: '19500.0', seed: 9 });
    const b = generateBars(symbolOf('GER40'), period('1day'), { count: 500, endTime: NOW, lastClose: '19500.0', seed: 9 });
    expect(a).toHaveLength(500);
    expect(a).toEqual(b);
    const weekdays = new Set(a.map((x) => new Date(x.time).getUTCDay()));
    expect([...weekdays].sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
