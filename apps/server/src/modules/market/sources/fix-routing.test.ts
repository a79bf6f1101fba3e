import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import type { FixSessionConfig } from '../../../fix-config.ts';
import { symbols } from '../../../platform/db/schema.ts';
import { staffSession } from '../../../../test/auth-helpers.ts';
import { call, createTestApp, type TestApp } from '../../../../test/test-app.ts';
import type { MarketServiceImpl } from '../market-service.ts';
import { markUp } from '../quote-pipeline.ts';
import { FixSimulator } from './fix-simulator.ts';
import type { PriceSource } from './price-source.ts';
import { localFixSession } from '../../../../test/trading/server-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

// Two providers on 127.0.0.1, each a FIX simulator; the sessions touch no database: one target is enough.
describe('FIX 4.4 price feed from two providers: failover and best of two', () => {
  let t: TestApp;
  let lp1: FixSessionConfig;
  let lp2: FixSessionConfig;
  let sim1: FixSimulator;
  let sim2: FixSimulator;
  let feed: PriceSource;
  let risk: string;
  const market = () => t.ctx.services.market as MarketServiceImpl;
  const btc = () => market().symbolByCode('BTCUSDT')!;
  const quoted = () => market().quote(btc().id)!;
  const marksUp = (bid: string, ask: string) => {
    const m = markUp(btc(), dec(bid), dec(ask));
    const q = quoted();
    return dec(q.bid).eq(m.bid) && dec(q.ask).eq(m.ask);
  };
  const session = (name: string) => feed.sessions!().find((s) => s.name === name)!;
  const route = () => feed.routes!().find((r) => r.code === 'BTCUSDT');
  /** A quote near the current mid: bid mid+b, ask mid+a. */
  const near = (b: number, a: number) => {
    const mid = dec(quoted().mid);
    return { symbol: 'BTC/USDT', bid: mid.plus(b).toString(), ask: mid.plus(a).toString(), time: Date.now() };
  };
  /** Pushes a quote from a provider and waits until the server has received it (whether or not it became the price). */
  const push = async (sim: FixSimulator, name: string, q: ReturnType<typeof near>) => {
    const before = session(name).quotes;
    sim.push(q);
    await until(() => session(name).quotes > before);
  };

  beforeAll(async () => {
    lp1 = await localFixSession();
    // lp2 beats every 30 s: no message follows its logon for a while (the simulators start without quotes),
    // and it counts as logged on all the same.
    lp2 = await localFixSession({ name: 'lp2', heartbeatSeconds: 30, symbols: { BTCUSDT: 'BTC/USDT', ETHUSDT: 'ETH/USDT' } });
    t = await createTestApp('pglite', {}, { PRICE_SOURCE: 'fix', fix: { mode: 'failover', sessions: [lp1, lp2] } });
    risk = await staffSession(t, ['risk']);
    // A provider's quote is live for one second.
    await t.ctx.db.update(symbols).set({ maxQuoteAgeSec: 1 }).where(eq(symbols.id, btc().id));
    await market().reloadSymbols();
    sim1 = new FixSimulator(lp1, t.ctx.log);
    sim2 = new FixSimulator(lp2, t.ctx.log);
    await Promise.all([sim1.start(), sim2.start()]);
    feed = t.ctx.services.priceSource;
    await feed.start();
    await until(
      () => (feed.sessions?.() ?? []).filter((s) => s.loggedOn).length === 2 && sim1.requests.length > 0 && sim2.requests.length > 0,
    );
  });
  afterAll(async () => {
    feed?.stop();
    sim1?.stop();
    sim2?.stop();
    await t?.close();
  });

  it('both sessions log on at once; the primary feeds the symbol, the secondary quote waits', async () => {
    expect(sim2.requests[0]!.symbols).toEqual(['BTC/USDT', 'ETH/USDT']);
    const q1 = near(-1, 1);
    await push(sim1, 'lp1', q1);
    await until(() => marksUp(q1.bid, q1.ask));
    const q2 = near(-2, 2);
    await push(sim2, 'lp2', q2);
    await sleep(300);
    expect(marksUp(q1.bid, q1.ask)).toBe(true);
    expect(route()).toEqual({ code: 'BTCUSDT', bid: 'lp1', ask: 'lp1' });

    const ready = (await t.app.inject({ method: 'GET', url: '/health/ready' })).json();
    expect(ready.checks.fix).toMatchObject({ ok: true, mode: 'failover' });
    expect(
      ready.checks.fix.sessions.map((s: { name: string; primary: boolean; loggedOn: boolean }) => [s.name, s.primary, s.loggedOn]),
    ).toEqual([
      ['lp1', true, true],
      ['lp2', false, true],
    ]);
    expect(ready.checks.fix.symbols).toContainEqual({ code: 'BTCUSDT', bid: 'lp1', ask: 'lp1' });
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/^tp_fix_logged_on\{session="lp2"\} 1$/m);
    expect(text).toMatch(/^tp_fix_symbol_provider\{symbol="BTCUSDT",session="lp1",side="bid"\} 1$/m);
    expect(text).not.toMatch(/^tp_fix_symbol_provider\{symbol="BTCUSDT",session="lp2"/m);

    // The back office's view: the mode, every session's state, and who feeds each symbol.
    const view = await call(t, 'GET', '/api/admin/fix-feed', {}, { token: risk });
    expect(view.code).toBe(1);
    expect(view.data.mode).toBe('failover');
    expect(view.data.sessions.map((s: { name: string }) => s.name)).toEqual(['lp1', 'lp2']);
    expect(view.data.sessions[1]).toMatchObject({ primary: false, loggedOn: true, gaps: 0 });
    expect(view.data.sessions[1].inSeqNum).toBeGreaterThan(1);
    expect(view.data.symbols).toContainEqual({ code: 'BTCUSDT', bid: 'lp1', ask: 'lp1' });
  });

  it('a primary that stops quoting goes stale: the secondary feeds the symbol, and the primary takes over again when it quotes', async () => {
    // lp1 falls silent (its heartbeats go on); lp2 keeps quoting.
    const stream = setInterval(() => sim2.push(near(-2, 2)), 150);
    try {
      await until(() => route()?.bid === 'lp2', 4000);
      const q2 = near(-3, 3);
      await push(sim2, 'lp2', q2);
      await until(() => marksUp(q2.bid, q2.ask));
      expect(session('lp1').loggedOn).toBe(true);
      // The symbol never stopped trading: the secondary's quotes kept it live.
      expect(market().isOpen(btc().id)).toBe(true);
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(text).toMatch(/^tp_fix_symbol_provider\{symbol="BTCUSDT",session="lp2",side="ask"\} 1$/m);

      // The primary quotes again: it feeds the symbol at once.
      const q1 = near(-1, 1);
      sim1.push(q1);
      await until(() => route()?.bid === 'lp1');
      await until(() => marksUp(q1.bid, q1.ask));
      await sleep(400);
      // The secondary's quotes (still streaming) no longer move the price.
      expect(marksUp(q1.bid, q1.ask)).toBe(true);
    } finally {
      clearInterval(stream);
    }
  });

  it('a primary whose connection drops hands over at once, and its old snapshot after the reconnect does not take the symbol back', async () => {
    const q2 = near(-2, 2);
    await push(sim2, 'lp2', q2);
    const reconnects = session('lp1').reconnects;
    // What the simulator will send as its snapshot after the reconnect: a quote priced long ago.
    sim1.quote('BTC/USDT')!.time = Date.now() - 10_000;
    sim1.dropConnections();
    await until(() => route()?.bid === 'lp2');
    await until(() => marksUp(q2.bid, q2.ask));
    await until(() => session('lp1').loggedOn && session('lp1').reconnects === reconnects + 1);
    // The simulator answered the new request with a snapshot of its last quote (now older than a second): lp2 keeps feeding.
    await sleep(200);
    expect(route()).toEqual({ code: 'BTCUSDT', bid: 'lp2', ask: 'lp2' });
    const q1 = near(-1, 1);
    sim1.push(q1);
    await until(() => marksUp(q1.bid, q1.ask) && route()?.bid === 'lp1');
  });

  it('best: the best bid and the best ask across the live providers; a stale provider no longer counts; a crossed best falls back to the first', async () => {
    feed.stop();
    const { FixFeedSource } = await import('./fix-feed.ts');
    const best = new FixFeedSource({
      market: market(),
      config: { ...t.config, fix: { mode: 'best', sessions: [lp1, lp2] } },
      log: t.ctx.log,
    });
    feed = best;
    best.start();
    await until(() => best.sessions().filter((s) => s.loggedOn).length === 2 && sim1.loggedOn() === 1 && sim2.loggedOn() === 1);
    const q1 = near(-3, 2);
    const q2 = { ...q1, bid: dec(q1.bid).plus(1).toString(), ask: dec(q1.ask).plus(1).toString() };
    await push(sim1, 'lp1', q1);
    await push(sim2, 'lp2', q2);
    // lp2 bids higher, lp1 offers lower.
    await until(() => marksUp(q2.bid, q1.ask));
    expect(route()).toEqual({ code: 'BTCUSDT', bid: 'lp2', ask: 'lp1' });

    // lp2 falls silent while lp1 keeps quoting: after lp2's quote's age passes, lp1's own price is the best.
    const stream = setInterval(() => sim1.push({ ...q1, time: Date.now() }), 150);
    try {
      await until(() => route()?.bid === 'lp1', 4000);
      await until(() => marksUp(q1.bid, q1.ask));
    } finally {
      clearInterval(stream);
    }
    const again = near(-2, 2);
    await push(sim1, 'lp1', again);
    await until(() => marksUp(again.bid, again.ask));

    // A crossed best (lp1 bids above lp2's offer) is not quoted: the first live provider's own quote is.
    const c1 = near(1, 3);
    const c2 = { ...c1, bid: dec(c1.bid).minus(4).toString(), ask: dec(c1.bid).minus(1).toString() };
    await push(sim2, 'lp2', c2);
    await push(sim1, 'lp1', c1);
    await until(() => marksUp(c1.bid, c1.ask));
    expect(route()).toEqual({ code: 'BTCUSDT', bid: 'lp1', ask: 'lp1' });
  });
});
