import { describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { barTimeOf, CandleAggregator } from './candle-aggregator.ts';

const at = (iso: string) => Date.parse(`${iso}Z`);
const one = dec(1);

describe('candle aggregator', () => {
  it('floors bar times to the period in UTC', () => {
    expect(barTimeOf('1min', at('2026-11-18T10:07:59.999'))).toBe(at('2026-11-18T10:07:00'));
    expect(barTimeOf('5min', at('2026-11-18T10:07:30'))).toBe(at('2026-11-18T10:05:00'));
    expect(barTimeOf('15min', at('2026-11-18T10:44:59'))).toBe(at('2026-11-18T10:30:00'));
    expect(barTimeOf('60min', at('2026-11-18T10:59:59'))).toBe(at('2026-11-18T10:00:00'));
    expect(barTimeOf('1day', at('2026-11-18T23:59:59'))).toBe(at('2026-11-18T00:00:00'));
  });

  it('builds 1min bars that add up to the 5min bar across minute boundaries', () => {
    const agg = new CandleAggregator();
    const ticks: [string, string][] = [
      ['2026-11-18T10:05:10', '1.10000'],
      ['2026-11-18T10:05:50', '1.10050'],
      ['2026-11-18T10:06:05', '1.09900'],
      ['2026-11-18T10:07:30', '1.10100'],
      ['2026-11-18T10:09:59', '1.10020'],
    ];
    for (const [time, price] of ticks) agg.update(1, price, at(time), one);
    expect(agg.forming(1, '5min')).toEqual({
      time: at('2026-11-18T10:05:00'),
      open: '1.10000',
      high: '1.10100',
      low: '1.09900',
      close: '1.10020',
      volume: '5',
    });
    expect(agg.forming(1, '1min')).toEqual({
      time: at('2026-11-18T10:09:00'),
      open: '1.10020',
      high: '1.10020',
      low: '1.10020',
      close: '1.10020',
      volume: '1',
    });
    const written = agg.takeDirty().filter((b) => b.period === '1min');
    expect(written.map((b) => [b.time, b.open, b.high, b.low, b.close, b.volume])).toEqual([
      [at('2026-11-18T10:05:00'), '1.10000', '1.10050', '1.10000', '1.10050', '2'],
      [at('2026-11-18T10:06:00'), '1.09900', '1.09900', '1.09900', '1.09900', '1'],
      [at('2026-11-18T10:07:00'), '1.10100', '1.10100', '1.10100', '1.10100', '1'],
      [at('2026-11-18T10:09:00'), '1.10020', '1.10020', '1.10020', '1.10020', '1'],
    ]);

    agg.update(1, '1.10500', at('2026-11-18T10:10:00'), one);
    expect(agg.forming(1, '5min')).toMatchObject({ time: at('2026-11-18T10:10:00'), open: '1.10500' });
    // The completed 5min bar was handed over with its final close; the new one is pending now.
    expect(
      agg
        .takeDirty()
        .filter((b) => b.period === '5min')
        .map((b) => b.time),
    ).toEqual([at('2026-11-18T10:10:00')]);
  });

  it('starts a new day bar at midnight UTC', () => {
    const agg = new CandleAggregator();
    agg.update(7, '100.00', at('2026-11-18T23:59:30'), one);
    agg.update(7, '101.00', at('2026-11-19T00:00:10'), one);
    const days = agg.takeDirty().filter((b) => b.period === '1day');
    expect(days.map((b) => [b.time, b.open, b.close])).toEqual([
      [at('2026-11-18T00:00:00'), '100.00', '100.00'],
      [at('2026-11-19T00:00:00'), '101.00', '101.00'],
    ]);
  });

  it('continues a restored bar after a restart, and never moves a bar back in time', () => {
    const agg = new CandleAggregator();
    agg.restore([
      {
        symbolId: 2,
        period: '60min',
        time: at('2026-11-18T10:00:00'),
        open: '50.0',
        high: '51.0',
        low: '49.0',
        close: '50.5',
        volume: '10',
      },
    ]);
    agg.update(2, '52.0', at('2026-11-18T10:30:00'), dec(2));
    expect(agg.forming(2, '60min')).toEqual({
      time: at('2026-11-18T10:00:00'),
      open: '50.0',
      high: '52.0',
      low: '49.0',
      close: '52.0',
      volume: '12',
    });
    agg.update(2, '10.0', at('2026-11-18T09:59:00'), one);
    expect(agg.forming(2, '60min')!.low).toBe('49.0');
  });

  it('gives failed writes back unless a newer version waits', () => {
    const agg = new CandleAggregator();
    agg.update(3, '1.0', at('2026-11-18T10:00:00'), one);
    const failed = agg.takeDirty();
    agg.update(3, '2.0', at('2026-11-18T10:00:30'), one);
    agg.giveBack(failed);
    const retry = agg.takeDirty().filter((b) => b.period === '1min');
    expect(retry.map((b) => b.close)).toEqual(['2.0']);
    expect(agg.takeDirty()).toEqual([]);
  });
});
