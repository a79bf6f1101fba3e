import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import type { MarketServiceImpl } from './market-service.ts';
import { upsertBars, type StoredBar } from './repository.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** Bars whose prices follow their index, so each aggregate can be checked by eye. */
function bars(symbolId: number, period: string, start: number, step: number, count: number): StoredBar[] {
  return Array.from({ length: count }, (_, i) => ({
    symbolId,
    period,
    time: start + i * step,
    open: (1 + i / 1000).toFixed(5),
    high: (1.5 + i / 1000).toFixed(5),
    low: (0.5 + i / 1000).toFixed(5),
    close: (1.0005 + i / 1000).toFixed(5),
    volume: String(10 + i),
  }));
}

describe.each(dbTargets)('kline 4H, 1W and 1MN on %s', (target) => {
  let t: TestApp;
  let id: number;
  const kline = (input: Record<string, unknown>) => call(t, 'GET', '/v1/api/forex/kline', { forex_id: id, ...input });

  beforeAll(async () => {
    t = await createTestApp(target);
    id = (t.ctx.services.market as MarketServiceImpl).symbolByCode('EURUSD')!.id;
    // Monday 2024-03-04 00:00 UTC: 14 hourly bars; 2024-01-25 to 2024-03-12: 48 daily bars.
    await upsertBars(t.ctx.db, bars(id, '60min', Date.UTC(2024, 2, 4), HOUR, 14));
    await upsertBars(t.ctx.db, bars(id, '1day', Date.UTC(2024, 0, 25), DAY, 48));
  });
  afterAll(async () => t?.close());

  it('4H bars open at UTC 00, 04, 08 and join four hourly bars', async () => {
    const res = await kline({ period: '240min', end: Date.UTC(2024, 2, 4, 13), limit: 10 });
    expect(res.code).toBe(1);
    expect(res.data.map((b: any) => iso(b.Time))).toEqual([
      '2024-03-04T00:00:00.000Z',
      '2024-03-04T04:00:00.000Z',
      '2024-03-04T08:00:00.000Z',
      '2024-03-04T12:00:00.000Z',
    ]);
    expect(res.data[1]).toMatchObject({
      Period: '240min',
      Open: '1.00400',
      High: '1.50700',
      Low: '0.50400',
      Close: '1.00750',
      Volume: '62',
    });
    // The 12:00 bar holds the two hourly bars stored so far.
    expect(res.data[3]).toMatchObject({ Open: '1.01200', Close: '1.01350', Volume: '45' });
  });

  it('1W bars start on Monday 00:00 UTC and 1MN bars on the 1st', async () => {
    const weeks = await kline({ period: '1week', end: Date.UTC(2024, 2, 12), limit: 100 });
    expect(weeks.data.map((b: any) => iso(b.Time))).toEqual([
      '2024-01-22T00:00:00.000Z',
      '2024-01-29T00:00:00.000Z',
      '2024-02-05T00:00:00.000Z',
      '2024-02-12T00:00:00.000Z',
      '2024-02-19T00:00:00.000Z',
      '2024-02-26T00:00:00.000Z',
      '2024-03-04T00:00:00.000Z',
      '2024-03-11T00:00:00.000Z',
    ]);
    // Week of 2024-01-29 holds days 4..10 of the series.
    expect(weeks.data[1]).toMatchObject({
      Period: '1week',
      Open: '1.00400',
      Close: '1.01050',
      High: '1.51000',
      Low: '0.50400',
      Volume: '119',
    });
    const months = await kline({ period: '1mon', end: Date.UTC(2024, 2, 12), limit: 100 });
    expect(months.data.map((b: any) => iso(b.Time))).toEqual([
      '2024-01-01T00:00:00.000Z',
      '2024-02-01T00:00:00.000Z',
      '2024-03-01T00:00:00.000Z',
    ]);
    // February 2024 has 29 days: days 7..35 of the series.
    expect(months.data[1]).toMatchObject({ Period: '1mon', Open: '1.00700', Close: '1.03550', High: '1.53500', Low: '0.50700' });
  });

  it('pages back without gaps or repeats', async () => {
    for (const period of ['240min', '1week', '1mon']) {
      const end = period === '240min' ? Date.UTC(2024, 2, 4, 13) : Date.UTC(2024, 2, 12);
      const whole = (await kline({ period, end, limit: 1000 })).data.map((b: any) => b.Time);
      const pages: number[] = [];
      let page = (await kline({ period, end, limit: 2 })).data;
      while (page.length) {
        pages.unshift(...page.map((b: any) => b.Time));
        page = (await kline({ period, before: page[0].Time, limit: 2 })).data;
      }
      expect(pages, period).toEqual(whole);
    }
  });
});
