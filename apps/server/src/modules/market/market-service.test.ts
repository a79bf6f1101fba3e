import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { CandleFlusher } from './candle-flusher.ts';
import { MarketServiceImpl } from './market-service.ts';
import { barsBefore } from './repository.ts';
import { CONFIRM_TICKS } from './quote-pipeline.ts';
import { type SourceTick, type Tick } from './types.ts';
import { BusChannels } from '../../platform/bus-channels.ts';

// Saturday 21 Nov 2026 12:00 UTC: forex closed, crypto open. Wednesday 18 Nov 2026 15:00 UTC: all open.
const SATURDAY = Date.UTC(2026, 10, 21, 12, 0);
const WEDNESDAY = Date.UTC(2026, 10, 18, 15, 0);

describe.each(dbTargets)('market service on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => t?.close());

  const sym = (code: string) => t.ctx.services.market.symbolByCode(code)!;
  /** A move beyond the deviation threshold, repeated until the filter accepts the new level. */
  const move = (tick: SourceTick) => {
    let accepted = false;
    for (let i = 0; i <= CONFIRM_TICKS && !accepted; i++) accepted = t.ctx.services.market.publishTick(tick);
    expect(accepted).toBe(true);
  };

  it('loads every symbol with its leverages ascending and a quote before any tick', () => {
    const m = t.ctx.services.market;
    expect(m.symbols().length).toBeGreaterThan(20);
    const eurusd = sym('EURUSD');
    expect(eurusd).toMatchObject({ code: 'EURUSD', showCode: 'EUR/USD', pricePrecision: 5, quoteCurrency: 'USD' });
    expect(eurusd.leverages.map((l) => l.value)).toEqual([10, 20, 50, 100, 200, 500]);
    expect(m.symbol(eurusd.id)?.code).toBe('EURUSD');
    for (const s of m.symbols()) {
      const q = m.quote(s.id)!;
      expect(q, s.code).toBeDefined();
      expect(Number(q.ask)).toBeGreaterThan(Number(q.bid));
    }
    expect(m.quote(eurusd.id)).toMatchObject({ mid: '1.08500', bid: '1.08494', ask: '1.08506' });
  });

  // Spread 20 on top: bid 95000.004 - 10 down to 94990.00, ask 95010.006 + 10 up to 95020.01; mid 95005.005 half-even to 95005.00.
  it('publishes ticks: adds the spread, rounds to precision, computes the mid, calls listeners, then the bus', () => {
    const m = t.ctx.services.market;
    const btc = sym('BTCUSDT');
    const order: string[] = [];
    const seen: Tick[] = [];
    const off = m.onTick((tick) => {
      order.push('listener');
      seen.push(tick);
    });
    const unsub = t.ctx.bus.subscribe(BusChannels.dayMarket, (msg) => order.push(`bus:${(msg as { symbol: string }).symbol}`));
    expect(m.publishTick({ symbolId: btc.id, bid: '95000.004', ask: '95010.006', time: SATURDAY })).toBe(true);
    off();
    unsub();
    expect(order).toEqual(['listener', 'bus:BTCUSDT']);
    expect(seen[0]).toMatchObject({ code: 'BTCUSDT', bid: '94990.00', ask: '95020.01', mid: '95005.00' });
    expect(m.quote(btc.id)).toMatchObject({ bid: '94990.00', ask: '95020.01', mid: '95005.00', time: SATURDAY });
  });

  it('refuses ticks while the market is closed and for unknown symbols', () => {
    const m = t.ctx.services.market;
    const eurusd = sym('EURUSD');
    const before = m.quote(eurusd.id);
    expect(m.inSession(eurusd.id, SATURDAY)).toBe(false);
    expect(m.publishTick({ symbolId: eurusd.id, bid: '1.1', ask: '1.1001', time: SATURDAY })).toBe(false);
    expect(m.quote(eurusd.id)).toEqual(before);
    expect(m.inSession(eurusd.id, WEDNESDAY)).toBe(true);
    expect(m.closedReason(eurusd.id, WEDNESDAY)).toBe('no_quote');
    expect(m.publishTick({ symbolId: 999_999, bid: '1', ask: '1', time: WEDNESDAY })).toBe(false);
    expect(m.publishTick({ symbolId: eurusd.id, bid: '1.2', ask: '1.1', time: WEDNESDAY })).toBe(false);
  });

  it('converts quote currencies to USD at current mids', () => {
    const m = t.ctx.services.market;
    expect(m.quoteToUsd(sym('EURUSD').id).toString()).toBe('1');
    move({ symbolId: sym('USDJPY').id, bid: '159.997', ask: '160.003', time: WEDNESDAY });
    expect(m.quoteToUsd(sym('EURJPY').id).toString()).toBe('0.00625');
    expect(m.publishTick({ symbolId: sym('GBPUSD').id, bid: '1.25000', ask: '1.25000', time: WEDNESDAY })).toBe(true);
    expect(m.quoteToUsd(sym('EURGBP').id).toString()).toBe('1.25');
  });

  it('keeps 24-hour figures in the quote and the DAY_MARKET push', () => {
    const m = t.ctx.services.market;
    const eth = sym('ETHUSDT');
    const pushes: any[] = [];
    const unsub = t.ctx.bus.subscribe(BusChannels.dayMarket, (msg) => pushes.push(msg));
    const base = Date.now();
    const open = m.quote(eth.id)!.open24h;
    move({ symbolId: eth.id, bid: '5000.00', ask: '5000.00', volume: '2', time: base });
    move({ symbolId: eth.id, bid: '1.00', ask: '1.00', volume: '3', time: base + 1 });
    unsub();
    const q = m.quote(eth.id)!;
    expect(q).toMatchObject({ open24h: open, high24h: '5000.00', low24h: '1.00', mid: '1.00' });
    expect(Number(q.volume24h)).toBeGreaterThanOrEqual(5);
    expect(pushes.at(-1)).toMatchObject({
      type: 'DAY_MARKET',
      symbol: 'ETHUSDT',
      time: base + 1,
      quotation: { close: '1.00', high: '5000.00', low: '1.00', open, market_status: 1, market_status_reason: null },
    });
  });

  it('announces a market closing and opening, by schedule and by quote age', () => {
    const m = t.ctx.services.market as MarketServiceImpl;
    const eurusd = sym('EURUSD');
    expect(m.publishTick({ symbolId: eurusd.id, bid: '1.08500', ask: '1.08500', time: WEDNESDAY })).toBe(true);
    const events: any[] = [];
    const quotes: any[] = [];
    const off = [
      t.ctx.bus.subscribe(BusChannels.marketStatus, (e) => events.push(e)),
      t.ctx.bus.subscribe(BusChannels.dayMarket, (q) => quotes.push(q)),
    ];
    m.checkMarketStatus(WEDNESDAY);
    m.checkMarketStatus(SATURDAY);
    m.checkMarketStatus(SATURDAY + 60_000);
    // A week later the session is open again but the last quote is a week old: still closed, now as stale.
    m.checkMarketStatus(WEDNESDAY + 7 * 86_400_000);
    expect(m.publishTick({ symbolId: eurusd.id, bid: '1.08510', ask: '1.08510', time: WEDNESDAY + 7 * 86_400_000 })).toBe(true);
    off.forEach((f) => f());
    expect(events.filter((e) => e.code === 'EURUSD')).toEqual([
      { symbolId: eurusd.id, code: 'EURUSD', open: false },
      { symbolId: eurusd.id, code: 'EURUSD', open: true },
    ]);
    const statuses = quotes.filter((q) => q.symbol === 'EURUSD').map((q) => [q.quotation.market_status, q.quotation.market_status_reason]);
    expect(statuses).toEqual([
      [2, 'closed'],
      [2, 'stale'],
      [1, null],
    ]);
    expect(quotes.filter((q) => q.symbol === 'BTCUSDT').map((q) => q.quotation.market_status_reason)).not.toContain('closed');
  });

  it('writes candles in batches and continues them after a restart', async () => {
    const m = t.ctx.services.market as MarketServiceImpl;
    const sol = sym('SOLUSDT');
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    move({ symbolId: sol.id, bid: '200.000', ask: '200.000', volume: '1', time: minute + 1000 });
    expect(m.publishTick({ symbolId: sol.id, bid: '210.000', ask: '210.000', volume: '1', time: minute + 2000 })).toBe(true);
    const flusher = new CandleFlusher(t.ctx.db, t.ctx.log, m.candles, 1000);
    await flusher.flush();
    const [stored] = await barsBefore(t.ctx.db, { symbolId: sol.id, period: '1min', limit: 1 });
    expect(stored).toMatchObject({ time: minute, volume: '2.000000' });
    expect(Number(stored!.high)).toBe(210);

    const restarted = new MarketServiceImpl(t.ctx);
    await restarted.init();
    expect(restarted.quote(sol.id)?.mid).toBe(m.quote(sol.id)!.mid);
    restarted.publishTick({ symbolId: sol.id, bid: '190.000', ask: '190.000', volume: '1', time: minute + 3000 });
    expect(restarted.formingBar(sol.id, '1min')).toMatchObject({
      time: minute,
      high: '210.000',
      low: '190.000',
      close: '190.000',
      volume: '3',
    });
    expect(restarted.formingBar(sol.id, '1min')!.open).toBe(m.formingBar(sol.id, '1min')!.open);
  });
});
