import { describe, expect, it } from 'vitest';
import { CHART_PERIODS, derivedBarStart } from './chart-periods.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('chart periods', () => {
  it('offers nine periods in order', () => {
    expect(CHART_PERIODS.map((p) => p.label)).toEqual(['1M', '5M', '15M', '30M', '1H', '4H', '1D', '1W', '1MN']);
  });

  it('opens 4H bars at UTC 00, 04, 08 ..., weeks on Monday 00:00 UTC, months on the 1st', () => {
    expect(iso(derivedBarStart('240min', at('2024-03-04T07:59:59Z')))).toBe('2024-03-04T04:00:00.000Z');
    expect(iso(derivedBarStart('240min', at('2024-03-04T23:00:00Z')))).toBe('2024-03-04T20:00:00.000Z');
    expect(iso(derivedBarStart('1week', at('2024-03-10T23:59:59Z')))).toBe('2024-03-04T00:00:00.000Z');
    expect(iso(derivedBarStart('1week', at('2024-03-11T00:00:00Z')))).toBe('2024-03-11T00:00:00.000Z');
    expect(iso(derivedBarStart('1week', at('1970-01-01T00:00:00Z')))).toBe('1969-12-29T00:00:00.000Z');
    expect(iso(derivedBarStart('1mon', at('2024-02-29T12:00:00Z')))).toBe('2024-02-01T00:00:00.000Z');
    expect(iso(derivedBarStart('1mon', at('2024-12-31T23:59:59Z')))).toBe('2024-12-01T00:00:00.000Z');
  });
});
