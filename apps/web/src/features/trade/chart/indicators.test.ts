import { describe, expect, it } from 'vitest';
import { computeIndicator } from './indicators';

const series = (closes: number[]) => ({ times: closes.map((_, i) => 1_700_000_000 + i * 60), closes });
const ramp = (n: number) => Array.from({ length: n }, (_, i) => 100 + i);

describe('indicator adapters', () => {
  it('SMA 20: the mean of the last 20 closes, from the 20th bar on, at the bar times', () => {
    const input = series(ramp(30));
    const { sma } = computeIndicator('sma', input);
    expect(sma).toHaveLength(11);
    expect(sma[0]).toEqual({ time: input.times[19], value: 109.5 });
    expect(sma.at(-1)).toEqual({ time: input.times[29], value: 119.5 });
  });

  it('EMA 50 of a flat series is the price; too few bars give no line', () => {
    expect(computeIndicator('ema', series(Array(60).fill(1.2345))).ema.every((p) => Math.abs(p.value - 1.2345) < 1e-9)).toBe(true);
    expect(computeIndicator('ema', series(Array(60).fill(1.2345))).ema).toHaveLength(11);
    expect(computeIndicator('ema', series(ramp(10))).ema).toEqual([]);
  });

  it('Bollinger bands: the middle is the SMA, the bands symmetric around it, collapsed when prices do not move', () => {
    const input = series([...ramp(25), ...ramp(25).reverse()]);
    const { upper, middle, lower } = computeIndicator('bb', input);
    const sma = computeIndicator('sma', input).sma;
    expect(middle.map((p) => p.value)).toEqual(sma.map((p) => p.value));
    for (let i = 0; i < middle.length; i++) {
      expect(upper[i]!.value - middle[i]!.value).toBeCloseTo(middle[i]!.value - lower[i]!.value, 9);
      expect(upper[i]!.value).toBeGreaterThan(middle[i]!.value);
    }
    const flat = computeIndicator('bb', series(Array(30).fill(5)));
    expect(flat.upper.every((p, i) => p.value === flat.lower[i]!.value)).toBe(true);
  });

  it('RSI stays within 0..100: 100 on a steady rise, 0 on a steady fall', () => {
    const up = computeIndicator('rsi', series(ramp(40))).rsi;
    expect(up).toHaveLength(26);
    expect(up.at(-1)!.value).toBeCloseTo(100, 6);
    const down = computeIndicator('rsi', series(ramp(40).reverse())).rsi;
    expect(down.at(-1)!.value).toBeCloseTo(0, 6);
    const zigzag = computeIndicator('rsi', series(Array.from({ length: 60 }, (_, i) => 100 + (i % 2 ? 1 : -1) * (i % 7)))).rsi;
    for (const p of zigzag) expect(p.value >= 0 && p.value <= 100).toBe(true);
  });

  it('MACD: line, signal and histogram = line - signal, positive in a rise', () => {
    const { macd, signal, histogram } = computeIndicator('macd', series(ramp(60)));
    expect(macd).toHaveLength(35);
    expect(signal).toHaveLength(27);
    expect(histogram).toHaveLength(27);
    expect(macd.at(-1)!.value).toBeGreaterThan(0);
    const last = macd.at(-1)!.value - signal.at(-1)!.value;
    expect(histogram.at(-1)!.value).toBeCloseTo(last, 9);
    expect(histogram.at(-1)!.time).toBe(macd.at(-1)!.time);
  });
});
