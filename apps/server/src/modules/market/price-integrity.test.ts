/**
 * Price integrity scenarios (PRICE-INTEGRITY.md): the symbol's spread on top of every source, the
 * deviation filter, and quote age. Given symbols and source ticks, expect quotes, tradability,
 * fills and refusals.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { symbols } from '../../platform/db/schema.ts';
import { api, cashOf, demoTrader, expectAuditClean, submit } from '../../../test/trading/test-kit.ts';
import type { MarketServiceImpl } from './market-service.ts';
import { BusChannels } from '../../platform/bus-channels.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NOT_LIVE = 'Prices for this product are not live right now; trading resumes with the next live price';

describe.each(dbTargets)('price integrity on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // No price source and no tick yet: every symbol starts at its seeded price, not tradable.
    t = await createTestApp(target, { MARKET_ALWAYS_OPEN: '1', DEMO_CREATE_RATE_LIMIT: '100000' });
    await t.ctx.services.trading.engine.start();
  });
  afterAll(async () => t?.close());

  const market = () => t.ctx.services.market as MarketServiceImpl;
  const sym = (code: string) => market().symbolByCode(code)!;
  /** A source tick at one price (bid = ask); true when traded on. */
  const feed = (code: string, price: string) => market().publishTick({ symbolId: sym(code).id, bid: price, ask: price, time: Date.now() });
  const quoteOf = (code: string) => {
    const q = market().quote(sym(code).id)!;
    return { bid: q.bid, ask: q.ask, mid: q.mid };
  };
  const healthOf = (code: string) =>
    market()
      .feedHealth()
      .find((h) => h.code === code)!;

  it('does not trade a symbol at its seeded price before the first live tick, and opens on that tick', async () => {
    const trader = await demoTrader(t);
    const btc = sym('BTCUSDT');
    const seeded = market().quote(btc.id)!.mid;
    expect(healthOf('BTCUSDT')).toMatchObject({ state: 'no_tick', lastTickAgeMs: null, suspectTicks: 0 });
    const list = await call(t, 'GET', '/v1/api/forex/trade_list', { searchCurrency: 'BTCUSDT' });
    expect(list.data[0]).toMatchObject({ MarketStatus: 2, MarketStatusReason: 'no_quote' });
    expect(await submit(t, trader, { type: 1, cont: '0.01', forex_id: btc.id, multiple: 2 })).toMatchObject({ code: 2001, msg: NOT_LIVE });

    const status: unknown[] = [];
    const off = t.ctx.bus.subscribe(BusChannels.marketStatus, (m) => status.push(m));
    expect(feed('BTCUSDT', seeded)).toBe(true);
    off();
    expect(status).toEqual([{ symbolId: btc.id, code: 'BTCUSDT', open: true }]);
    expect(healthOf('BTCUSDT')).toMatchObject({ state: 'live', suspectTicks: 0 });
    expect((await submit(t, trader, { type: 1, cont: '0.01', forex_id: btc.id, multiple: 2 })).code).toBe(1);
  });

  // Markup: bid = source bid - spread/2 rounded down, ask = source ask + spread/2 rounded up, in price units.
  it.each([
    { code: 'BTCUSDT', source: ['95000.00', '95000.00'], quote: { bid: '94990.00', ask: '95010.00', mid: '95000.00' } },
    { code: 'USDJPY', source: ['150.000', '150.000'], quote: { bid: '149.993', ask: '150.007', mid: '150.000' } },
    { code: 'EURGBP', source: ['0.85430', '0.85430'], quote: { bid: '0.85422', ask: '0.85438', mid: '0.85430' } },
    { code: 'EURGBP', source: ['0.85420', '0.85440'], quote: { bid: '0.85412', ask: '0.85448', mid: '0.85430' } },
  ])('quotes $code source $source with the symbol spread on top: $quote', ({ code, source, quote }) => {
    expect(market().publishTick({ symbolId: sym(code).id, bid: source[0]!, ask: source[1]!, time: Date.now() })).toBe(true);
    expect(quoteOf(code)).toEqual(quote);
  });

  it('fills a feed tick with bid = ask at the marked-up prices: a round trip costs the spread', async () => {
    const trader = await demoTrader(t);
    const btc = sym('BTCUSDT');
    expect(feed('BTCUSDT', '95000.00')).toBe(true);
    const opened = await submit(t, trader, { type: 1, cont: '1', forex_id: btc.id, multiple: 10 });
    expect(opened.data).toMatchObject({ Price: '95010.00', TradeFee: '3.000000' });
    const closed = await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id });
    expect(closed.data).toMatchObject({ UpdatePrice: '94990.00', FactProfits: '-20.000000' });
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '99977', locked: '0' });
    await expectAuditClean(t);
  });

  // Deviation filter: BTCUSDT 10%, USDJPY and EURGBP 2%; a new level trades on its third tick in a row.
  it.each([
    {
      name: 'BTC spike then revert',
      code: 'BTCUSDT',
      ticks: ['95000.00', '9.50', '95010.00'],
      accepted: [true, false, true],
      mid: '95010.00',
    },
    {
      name: 'BTC two different spikes',
      code: 'BTCUSDT',
      ticks: ['95000.00', '9.50', '50000.00', '94000.00'],
      accepted: [true, false, false, true],
      mid: '94000.00',
    },
    {
      name: 'BTC move confirmed',
      code: 'BTCUSDT',
      ticks: ['95000.00', '80000.00', '80100.00', '80050.00'],
      accepted: [true, false, false, true],
      mid: '80050.00',
    },
    { name: 'BTC move within 10%', code: 'BTCUSDT', ticks: ['80050.00', '87000.00'], accepted: [true, true], mid: '87000.00' },
    {
      name: 'USDJPY spike then revert',
      code: 'USDJPY',
      ticks: ['150.000', '160.000', '150.010'],
      accepted: [true, false, true],
      mid: '150.010',
    },
    { name: 'EURGBP move within 2%', code: 'EURGBP', ticks: ['0.85430', '0.87000'], accepted: [true, true], mid: '0.87000' },
    {
      name: 'EURGBP move confirmed',
      code: 'EURGBP',
      ticks: ['0.87000', '0.90000', '0.90010', '0.89990'],
      accepted: [true, false, false, true],
      mid: '0.89990',
    },
  ])('$name: accepted $accepted, quote mid $mid', ({ code, ticks, accepted, mid }) => {
    // EURGBP's profit converts through GBPUSD: its ticks are traded on only while that quote is live.
    if (code === 'EURGBP') expect(feed('GBPUSD', quoteOf('GBPUSD').mid)).toBe(true);
    const before = healthOf(code).suspectTicks;
    const heard: string[] = [];
    const off = market().onTick((x) => x.code === code && heard.push(x.mid));
    expect(ticks.map((p) => feed(code, p))).toEqual(accepted);
    off();
    expect(quoteOf(code).mid).toBe(mid);
    expect(heard).toEqual(ticks.filter((_, i) => accepted[i]));
    expect(healthOf(code).suspectTicks - before).toBe(accepted.filter((a) => !a).length);
  });

  it('does not stop out a long on one bad tick: no quote, candle or trigger at 9.50', async () => {
    const trader = await demoTrader(t);
    const btc = sym('BTCUSDT');
    expect(feed('BTCUSDT', '95000.00')).toBe(true);
    const opened = await submit(t, trader, { type: 1, cont: '2', forex_id: btc.id, multiple: 2, stop_loss_price: '90000' });
    expect(opened.code).toBe(1);
    const low = market().formingBar(btc.id, '1min')!.low;
    expect(feed('BTCUSDT', '9.50')).toBe(false);
    await t.ctx.services.trading.engine.idle();
    expect(quoteOf('BTCUSDT').mid).toBe('95000.00');
    expect(market().formingBar(btc.id, '1min')!.low).toBe(low);
    const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1 });
    expect(holding.data.data.map((o: any) => o.Id)).toEqual([opened.data.Id]);
    expect(feed('BTCUSDT', '95020.00')).toBe(true);
    await t.ctx.services.trading.engine.idle();
    expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.total).toBe(1);
    expect((await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id })).code).toBe(1);
    await expectAuditClean(t);
  });

  it('stops trading a symbol whose quote is older than its maximum age, and resumes on the next tick', async () => {
    const trader = await demoTrader(t);
    const eth = sym('ETHUSDT');
    await t.ctx.db.update(symbols).set({ maxQuoteAgeSec: 2 }).where(eq(symbols.id, eth.id));
    await market().reloadSymbols();
    const price = market().quote(eth.id)!.mid;
    expect(feed('ETHUSDT', price)).toBe(true);
    const opened = await submit(t, trader, { type: 1, cont: '1', forex_id: eth.id, multiple: 10 });
    const pending = await submit(t, trader, { type: 1, cont: '1', forex_id: eth.id, multiple: 10, status: 0, target_price: '1' });
    expect([opened.code, pending.code]).toEqual([1, 1]);

    // The feed falls silent for longer than ETHUSDT's maximum quote age of 2 seconds.
    await sleep(2_100);
    const pushes: any[] = [];
    const off = t.ctx.bus.subscribe(BusChannels.dayMarket, (m) => pushes.push(m));
    market().checkMarketStatus();
    off();
    expect(pushes.filter((p) => p.symbol === 'ETHUSDT').map((p) => p.quotation)).toMatchObject([
      { market_status: 2, market_status_reason: 'stale' },
    ]);
    expect(healthOf('ETHUSDT')).toMatchObject({ state: 'stale', lastTickAgeMs: expect.any(Number) });
    expect(healthOf('ETHUSDT').lastTickAgeMs).toBeGreaterThan(2_000);
    const list = await call(t, 'GET', '/v1/api/forex/trade_list', { searchCurrency: 'ETHUSDT' });
    expect(list.data[0]).toMatchObject({ MarketStatus: 2, MarketStatusReason: 'stale', MaxQuoteAge: 2 });
    expect(await submit(t, trader, { type: 2, cont: '1', forex_id: eth.id, multiple: 10 })).toMatchObject({ code: 2001, msg: NOT_LIVE });
    expect(await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id })).toMatchObject({ code: 2001, msg: NOT_LIVE });
    // Cancelling a pending order needs no price and stays allowed.
    expect((await api(t, trader, '/v1/api/forex/cancel_trade', { id: pending.data.Id })).code).toBe(1);

    expect(feed('ETHUSDT', price)).toBe(true);
    expect(healthOf('ETHUSDT').state).toBe('live');
    expect((await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id })).code).toBe(1);
    await expectAuditClean(t);
  });
});
