import { describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { mulberry32, RandomWalk, seedOf } from './random-walk.ts';
import { simulatedTick } from './simulator.ts';
import { markUp } from '../quote-pipeline.ts';
import type { MarketSymbol } from '../repository.ts';

const eurusd = { code: 'EURUSD', pricePrecision: 5, spread: dec('0.00012'), volatility: 0.07, basePrice: '1.08500' } as MarketSymbol;
const walkOf = (seed: number, code = 'EURUSD', volatility = 0.07) =>
  new RandomWalk({ seed, code, volatility, basePrice: '1.08500', pricePrecision: 5 });
const series = (seed: number, n = 200) => {
  const walk = walkOf(seed);
  return Array.from({ length: n }, () => simulatedTick(eurusd, walk, 0.2));
};

describe('price simulator', () => {
  it('gives the same ticks for the same seed and different ones for another seed or symbol', () => {
    const a = series(42).map((t) => `${t.mid}/${t.volume}`);
    expect(series(42).map((t) => `${t.mid}/${t.volume}`)).toEqual(a);
    const b = series(43).map((t) => `${t.mid}/${t.volume}`);
    expect(b).not.toEqual(a);
    expect(seedOf(42, 'EURUSD')).not.toBe(seedOf(42, 'GBPUSD'));
    expect(mulberry32(1)()).toBe(mulberry32(1)());
  });

  it('hands the price at the precision; the market quotes bid and ask around it by the spread', () => {
    for (const t of series(7)) {
      expect(t.mid).toMatch(/^\d\.\d{5}$/);
      const { bid, ask } = markUp(eurusd, dec(t.mid), dec(t.mid));
      expect(ask.minus(bid).toString()).toBe('0.00012');
      expect(bid.plus(ask).div(2).eq(t.mid)).toBe(true);
    }
  });

  it('moves with the symbol volatility scaled to the tick interval', () => {
    // 20 000 steps of 1 s: the standard deviation of log returns is about 0.07 / sqrt(seconds per year).
    const walk = new RandomWalk({ seed: 3, code: 'X', volatility: 0.07, basePrice: '1000.00000', pricePrecision: 5 });
    const gaps: number[] = [];
    let last = walk.gap;
    for (let i = 0; i < 20_000; i++) {
      const g = walk.move(1);
      gaps.push(g - last);
      last = g;
    }
    const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
    const sd = Math.sqrt(gaps.reduce((s, g) => s + (g - mean) ** 2, 0) / gaps.length);
    const expected = 0.07 / Math.sqrt(365 * 86_400);
    expect(sd).toBeGreaterThan(expected * 0.9);
    expect(sd).toBeLessThan(expected * 1.3);
  });

  it('never quotes a price below one price unit', () => {
    const walk = new RandomWalk({ seed: 5, code: 'PENNY', volatility: 50, basePrice: '0.002', pricePrecision: 3 });
    for (let i = 0; i < 2000; i++) expect(walk.step(3600).gte('0.001')).toBe(true);
  });
});
