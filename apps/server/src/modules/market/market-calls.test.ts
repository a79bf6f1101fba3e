import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { symbols } from '../../platform/db/schema.ts';
import { ensureHistory } from './history.ts';
import type { MarketServiceImpl } from './market-service.ts';

const MINUTE = 60_000;

describe.each(dbTargets)('market calls on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => t?.close());

  const market = () => t.ctx.services.market as MarketServiceImpl;
  const sym = (code: string) => market().symbolByCode(code)!;

  it('lists symbols with their terms, leverages and quotes in the trade_list shape', async () => {
    const res = await call(t, 'GET', '/v1/api/forex/trade_list');
    expect(res.code).toBe(1);
    const eurusd = res.data.find((r: any) => r.Code === 'EURUSD');
    expect(eurusd).toMatchObject({
      Id: sym('EURUSD').id,
      ShowCode: 'EUR/USD',
      Logo: '/logos/eurusd.svg',
      CategoryId: sym('EURUSD').categoryId,
      PricePrecision: 5,
      MarginMode: 1,
      Pip: '0.01',
      ForexMinCont: '0.01',
      ForexMaxCont: '50',
      ForexContNum: '100000',
      ForexFeeRate: '5',
      MaxQuoteAge: 30,
      LastPrice: '1.08500',
    });
    expect([1, 2]).toContain(eurusd.MarketStatus);
    expect(eurusd.MarketStatus).toBe(market().isOpen(sym('EURUSD').id) ? 1 : 2);
    expect(eurusd.HasForexMultiple.map((l: any) => l.Value)).toEqual([10, 20, 50, 100, 200, 500]);
    expect(eurusd.HasForexMultiple[0]).toEqual({ Id: expect.any(Number), ForexId: sym('EURUSD').id, Value: 10 });
    expect(eurusd.ForexQuotations).toMatchObject({
      Id: sym('EURUSD').id,
      ForexId: sym('EURUSD').id,
      Close: '1.08500',
      Open: expect.any(String),
      High: expect.any(String),
      Low: expect.any(String),
      Change: expect.stringMatching(/^-?\d+\.\d{2}$/),
      Volume: expect.any(String),
      Amount: expect.any(String),
      NowTime: expect.any(Number),
    });
    // Before its first live tick a symbol does not trade at its seeded price; the next tick opens it.
    const btc = res.data.find((r: any) => r.Code === 'BTCUSDT');
    expect(btc).toMatchObject({ MarketStatus: 2, MarketStatusReason: 'no_quote' });
    const mid = market().quote(sym('BTCUSDT').id)!.mid;
    expect(market().publishTick({ symbolId: sym('BTCUSDT').id, bid: mid, ask: mid, time: Date.now() })).toBe(true);
    const after = await call(t, 'GET', '/v1/api/forex/trade_list', { searchCurrency: 'BTCUSDT' });
    expect(after.data[0]).toMatchObject({ Code: 'BTCUSDT', MarketStatus: 1, MarketStatusReason: null });
    const logo = await t.app.inject({ method: 'GET', url: eurusd.Logo });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toMatch(/svg/);
  });

  it('filters by searchCurrency on Code or ShowCode, case-insensitive, by GET or POST', async () => {
    const eur = await call(t, 'GET', '/v1/api/forex/trade_list', { searchCurrency: 'eur' });
    expect(eur.data.map((r: any) => r.Code).sort()).toEqual(['EURCHF', 'EURGBP', 'EURJPY', 'EURUSD']);
    const slash = await call(t, 'POST', '/v1/api/forex/trade_list', { searchCurrency: 'XAU/' });
    expect(slash.data.map((r: any) => r.Code)).toEqual(['XAUUSD']);
    expect((await call(t, 'GET', '/v1/api/forex/trade_list', { searchCurrency: 'zzz' })).data).toEqual([]);
  });

  it('leaves hidden symbols out of the list once staff hide them', async () => {
    await t.ctx.db.update(symbols).set({ visible: false }).where(eq(symbols.code, 'NGAS'));
    await market().reloadSymbols();
    const res = await call(t, 'GET', '/v1/api/forex/trade_list', { searchCurrency: 'NGAS' });
    expect(res.data).toEqual([]);
    await t.ctx.db.update(symbols).set({ visible: true }).where(eq(symbols.code, 'NGAS'));
    await market().reloadSymbols();
    expect((await call(t, 'GET', '/v1/api/forex/trade_list', { searchCurrency: 'NGAS' })).data).toHaveLength(1);
  });

  it('translates category names by lang, on both paths', async () => {
    const en = await call(t, 'GET', '/v1/api/forex/getCategories', {}, { lang: 'en' });
    expect(en.data.map((c: any) => c.NameShowTrans)).toEqual(['Forex', 'Commodities', 'Crypto', 'Indices']);
    expect(en.data[0]).toEqual({ Id: expect.any(Number), NameShowTrans: 'Forex' });
    const hk = await call(t, 'GET', '/v1/api/forex/categories', {}, { lang: 'hk' });
    expect(hk.data.map((c: any) => c.NameShowTrans)).toEqual(['外匯', '商品', '加密貨幣', '指數']);
    const de = await call(t, 'POST', '/v1/api/forex/getCategories', {}, { lang: 'de' });
    expect(de.data[0].NameShowTrans).toBe('Devisen');
  });

  it('answers kline oldest first ending with the forming bar, and pages back into history', async () => {
    const btc = sym('BTCUSDT');
    const now = Date.now();
    await ensureHistory(t.ctx.db, t.ctx.log, [btc], { count: 60, seed: 1, now, priceOf: (id) => market().quote(id)!.mid });
    expect(market().publishTick({ symbolId: btc.id, bid: '95000.00', ask: '95002.00', time: now })).toBe(true);

    const first = await call(t, 'GET', '/v1/api/forex/kline', { forex_id: btc.id, period: '1min', limit: 25 });
    expect(first.code).toBe(1);
    const bars = first.data as any[];
    expect(bars).toHaveLength(25);
    const formingTime = Math.floor(now / MINUTE) * MINUTE;
    expect(bars.at(-1)).toMatchObject({
      Time: formingTime,
      Close: '95001.00',
      Period: '1min',
      Code: 'BTCUSDT',
      ForexId: btc.id,
      Id: formingTime,
    });
    for (let i = 1; i < bars.length; i++) expect(bars[i].Time - bars[i - 1].Time).toBe(MINUTE);
    expect(Object.keys(bars[0]).sort()).toEqual([
      'Amount',
      'Change',
      'Close',
      'Code',
      'ForexId',
      'High',
      'Id',
      'Low',
      'Open',
      'Period',
      'Time',
      'Volume',
    ]);
    for (const b of bars) {
      expect(b.Open).toMatch(/^\d+\.\d{2}$/);
      expect(Number(b.High)).toBeGreaterThanOrEqual(Math.max(Number(b.Open), Number(b.Close)));
      expect(Number(b.Low)).toBeLessThanOrEqual(Math.min(Number(b.Open), Number(b.Close)));
    }
    // History ends where the live price starts: each generated bar opens at the previous close.
    for (let i = 1; i < bars.length - 1; i++) expect(bars[i].Open).toBe(bars[i - 1].Close);

    const older = await call(t, 'GET', '/v1/api/forex/kline', { forex_id: btc.id, period: '1min', limit: 25, before: bars[0].Time });
    expect(older.data).toHaveLength(25);
    expect(older.data.at(-1).Time).toBe(bars[0].Time - MINUTE);
    const end = await call(t, 'GET', '/v1/api/forex/kline', { forex_id: btc.id, period: '1min', limit: 3, end: bars[0].Time });
    expect(end.data.map((b: any) => b.Time)).toEqual([bars[0].Time - 2 * MINUTE, bars[0].Time - MINUTE, bars[0].Time]);
    const tail = await call(t, 'GET', '/v1/api/forex/kline', { forex_id: btc.id, period: '1min', limit: 1000, before: older.data[0].Time });
    expect(tail.data).toHaveLength(60 - 24 - 25);

    const day = await call(t, 'GET', '/v1/api/forex/kline', { forex_id: btc.id, period: '1day' });
    expect(day.data).toHaveLength(61);
    expect(day.data.at(-1).Time).toBe(Math.floor(now / 86_400_000) * 86_400_000);
  });

  it('refuses unknown periods and symbols with a translated message', async () => {
    const period = await call(t, 'GET', '/v1/api/forex/kline', { forex_id: sym('BTCUSDT').id, period: '2min' }, { lang: 'en' });
    expect(period).toMatchObject({ code: 1001, msg: 'Unknown chart period' });
    const symbol = await call(t, 'GET', '/v1/api/forex/kline', { forex_id: 999_999, period: '1min' }, { lang: 'hk' });
    expect(symbol).toMatchObject({ code: 1004, msg: '此交易品種不存在' });
  });

  it('serves the short recent series for the market list', async () => {
    const btc = sym('BTCUSDT');
    const res = await call(t, 'GET', '/v1/api/forex/abbreviated_cache_kline', { forex_id: btc.id, period: '1min' });
    expect(res.code).toBe(1);
    expect(res.data.length).toBeGreaterThan(40);
    expect(res.data.length).toBeLessThanOrEqual(48);
    expect(res.data.at(-1)).toMatchObject({ Close: market().formingBar(btc.id, '1min')!.close, Period: '1min' });
    const hourly = await call(t, 'GET', '/v1/api/forex/abbreviated_cache_kline', { forex_id: btc.id });
    expect(hourly.data.at(-1).Period).toBe('60min');
  });
});
