import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { ConfigError, loadConfig } from '../../../config.ts';
import type { FixSessionConfig } from '../../../fix-config.ts';
import { symbols } from '../../../platform/db/schema.ts';
import { createTestApp, type TestApp } from '../../../../test/test-app.ts';
import type { MarketServiceImpl } from '../market-service.ts';
import { markUp } from '../quote-pipeline.ts';
import type { Tick } from '../types.ts';
import { FixSimulator } from './fix-simulator.ts';
import type { PriceSource } from './price-source.ts';
import { freePort, localFixSession } from '../../../../test/trading/server-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

// The FIX session touches no database: one target is enough.
describe('FIX 4.4 price feed against the FIX simulator', () => {
  let t: TestApp;
  let session: FixSessionConfig;
  let sim: FixSimulator;
  let feed: PriceSource;
  const ticks: Tick[] = [];
  const market = () => t.ctx.services.market as MarketServiceImpl;

  beforeAll(async () => {
    session = await localFixSession({ username: 'tp-user', password: 'tp-secret', symbols: { BTCUSDT: 'BTC/USDT', ETHUSDT: 'ETH/USDT' } });
    // The app builds its price source from PRICE_SOURCE=fix; the test starts it as the leader would.
    t = await createTestApp('pglite', {}, { PRICE_SOURCE: 'fix', fix: { mode: 'failover', sessions: [session] } });
    market().onTick((tick) => ticks.push(tick));
    const btc = market().quote(market().symbolByCode('BTCUSDT')!.id)!;
    sim = new FixSimulator(session, t.ctx.log, [
      { symbol: 'BTC/USDT', bid: dec(btc.mid).minus(5).toString(), ask: dec(btc.mid).plus(5).toString(), time: Date.now() },
    ]);
    await sim.start();
    feed = t.ctx.services.priceSource;
    expect(feed.name).toBe('fix');
    await feed.start();
  });
  afterAll(async () => {
    feed?.stop();
    sim?.stop();
    await t?.close();
  });

  const btc = () => market().symbolByCode('BTCUSDT')!;
  const eth = () => market().symbolByCode('ETHUSDT')!;
  const status = () => feed.sessions!()[0]!;
  const quoted = (id: number) => market().quote(id)!;
  const marksUp = (code: 'BTCUSDT' | 'ETHUSDT', bid: string, ask: string) => {
    const m = markUp(market().symbolByCode(code)!, dec(bid), dec(ask));
    const q = quoted(market().symbolByCode(code)!.id);
    return dec(q.bid).eq(m.bid) && dec(q.ask).eq(m.ask);
  };

  it('logs on with username and password, asks for top of book of its symbols, and the snapshot becomes the quote', async () => {
    await until(() => status().loggedOn && sim.requests.length > 0);
    expect(sim.logons[0]).toEqual({ username: 'tp-user', password: 'tp-secret' });
    expect(sim.requests[0]).toEqual({ symbols: ['BTC/USDT', 'ETH/USDT'], subscriptionType: '1', depth: '1', entryTypes: ['0', '1'] });
    const snap = sim.quote('BTC/USDT')!;
    await until(() => marksUp('BTCUSDT', snap.bid, snap.ask));
    const tick = ticks.filter((x) => x.symbolId === btc().id).at(-1)!;
    expect(tick.sourceTime).toBe(snap.time);
  });

  it('incremental refreshes reach the market service with the provider time as the quote time', async () => {
    const mid = dec(quoted(eth().id).mid);
    const sentAt = Date.now() - 250;
    sim.push({ symbol: 'ETH/USDT', bid: mid.minus(1).toString(), ask: mid.plus(1).toString(), time: sentAt });
    await until(() => marksUp('ETHUSDT', mid.minus(1).toString(), mid.plus(1).toString()));
    expect(ticks.filter((x) => x.symbolId === eth().id).at(-1)!.sourceTime).toBe(sentAt);
    // Without an entry time, the message's SendingTime (52) is the quote time.
    const before = Date.now();
    sim.push({ symbol: 'ETH/USDT', bid: mid.minus(2).toString(), ask: mid.plus(2).toString() });
    await until(() => marksUp('ETHUSDT', mid.minus(2).toString(), mid.plus(2).toString()));
    const stamped = ticks.filter((x) => x.symbolId === eth().id).at(-1)!.sourceTime!;
    expect(stamped).toBeGreaterThanOrEqual(before - 5);
    expect(stamped).toBeLessThanOrEqual(Date.now());
    expect(market().isOpen(eth().id)).toBe(true);
  });

  it('heartbeats flow while no quote is sent; /health/ready and /metrics show the session', async () => {
    const beats = status().heartbeats;
    const sent = sim.received.filter((m) => m === '0').length;
    await until(() => status().heartbeats >= beats + 2 && sim.received.filter((m) => m === '0').length >= sent + 2, 5000);
    const s = status();
    expect(s).toMatchObject({ loggedOn: true, primary: true, name: 'lp1' });
    expect(s.inSeqNum).toBeGreaterThan(1);
    expect(s.outSeqNum).toBeGreaterThan(1);

    const ready = (await t.app.inject({ method: 'GET', url: '/health/ready' })).json();
    const [reported] = ready.checks.fix.sessions;
    expect(ready.checks.fix.ok).toBe(true);
    expect(reported).toMatchObject({ name: 'lp1', primary: true, loggedOn: true, gaps: 0, reconnects: 0 });
    expect(reported.inSeqNum).toBeGreaterThan(1);
    expect(reported.outSeqNum).toBeGreaterThan(1);
    expect(Date.now() - Date.parse(reported.lastMessageAt)).toBeLessThan(2500);

    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/^tp_fix_logged_on\{session="lp1"\} 1$/m);
    expect(text).toMatch(/^tp_fix_seq_num\{session="lp1",direction="in"\} [1-9]\d*$/m);
    expect(text).toMatch(/^tp_fix_seq_num\{session="lp1",direction="out"\} [1-9]\d*$/m);
    expect(text).toMatch(/^tp_fix_last_message_age_seconds\{session="lp1"\} [0-9.e-]+$/m);
    expect(text).toMatch(/^tp_fix_gaps\{session="lp1"\} 0$/m);
    expect(text).toMatch(/^tp_fix_reconnects\{session="lp1"\} 0$/m);
  });

  it('a dropped connection logs on again and quotes resume', async () => {
    const reconnects = status().reconnects;
    sim.dropConnections();
    await until(() => status().reconnects === reconnects + 1 && status().loggedOn && sim.loggedOn() === 1);
    const mid = dec(quoted(btc().id).mid);
    sim.push({ symbol: 'BTC/USDT', bid: mid.plus(3).toString(), ask: mid.plus(7).toString(), time: Date.now() });
    await until(() => marksUp('BTCUSDT', mid.plus(3).toString(), mid.plus(7).toString()));
    expect(sim.requests.length).toBeGreaterThanOrEqual(2);
    const ready = (await t.app.inject({ method: 'GET', url: '/health/ready' })).json();
    expect(ready.checks.fix.sessions[0]).toMatchObject({ loggedOn: true, reconnects: reconnects + 1 });
  });

  it('a sequence gap is resent or gap-filled and the session carries on', async () => {
    const gaps = status().gaps;
    const resendRequests = sim.received.filter((m) => m === '2').length;
    sim.skipSequenceNumbers(3);
    const mid = dec(quoted(btc().id).mid);
    sim.push({ symbol: 'BTC/USDT', bid: mid.minus(4).toString(), ask: mid.plus(4).toString(), time: Date.now() });
    await until(() => status().gaps === gaps + 1);
    // The server asked for the missing messages (ResendRequest, 35=2).
    await until(() => sim.received.filter((m) => m === '2').length === resendRequests + 1);
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(new RegExp(`^tp_fix_gaps\\{session="lp1"\\} ${gaps + 1}$`, 'm'));
    await until(() => marksUp('BTCUSDT', mid.minus(4).toString(), mid.plus(4).toString()));
    // Later messages are in sequence again: the next quote arrives and no further gap is seen.
    sim.push({ symbol: 'BTC/USDT', bid: mid.minus(1).toString(), ask: mid.plus(1).toString(), time: Date.now() });
    await until(() => marksUp('BTCUSDT', mid.minus(1).toString(), mid.plus(1).toString()));
    expect(status()).toMatchObject({ loggedOn: true, gaps: gaps + 1 });
  });

  it('a provider that stops quoting (heartbeats still flowing) leaves the symbol stale by its quote age; the next quote makes it live', async () => {
    await t.ctx.db.update(symbols).set({ maxQuoteAgeSec: 1 }).where(eq(symbols.id, btc().id));
    await market().reloadSymbols();
    try {
      const mid = dec(quoted(btc().id).mid);
      sim.push({ symbol: 'BTC/USDT', bid: mid.toString(), ask: mid.toString(), time: Date.now() });
      await until(() => market().isOpen(btc().id));
      await until(() => !market().isOpen(btc().id), 4000);
      expect(
        market()
          .feedHealth()
          .find((h) => h.code === 'BTCUSDT')!.state,
      ).toBe('stale');
      expect(status().loggedOn).toBe(true);
      // A quote the provider priced long ago is quoted but stays stale.
      sim.push({ symbol: 'BTC/USDT', bid: mid.plus(1).toString(), ask: mid.plus(1).toString(), time: Date.now() - 10_000 });
      await until(() => marksUp('BTCUSDT', mid.plus(1).toString(), mid.plus(1).toString()));
      expect(market().isOpen(btc().id)).toBe(false);
      sim.push({ symbol: 'BTC/USDT', bid: mid.plus(2).toString(), ask: mid.plus(2).toString(), time: Date.now() });
      await until(() => market().isOpen(btc().id));
      // Each quote carries its own message's time, not the newest the symbol has seen.
      const old = Date.now() - 20_000;
      sim.push({ symbol: 'BTC/USDT', bid: mid.plus(3).toString(), ask: mid.plus(3).toString(), time: old });
      await until(() => marksUp('BTCUSDT', mid.plus(3).toString(), mid.plus(3).toString()));
      expect(ticks.filter((x) => x.symbolId === btc().id).at(-1)!.sourceTime).toBe(old);
    } finally {
      await t.ctx.db.update(symbols).set({ maxQuoteAgeSec: 30 }).where(eq(symbols.id, btc().id));
      await market().reloadSymbols();
    }
  });

  it('a provider that goes away is tried again until it is back, then quotes resume', async () => {
    const reconnects = status().reconnects;
    sim.stop();
    await until(() => !status().loggedOn);
    await sleep(1500);
    expect(status().loggedOn).toBe(false);
    const mid = dec(quoted(btc().id).mid);
    sim = new FixSimulator(session, t.ctx.log, [
      { symbol: 'BTC/USDT', bid: mid.minus(6).toString(), ask: mid.plus(6).toString(), time: Date.now() },
    ]);
    await sim.start();
    await until(() => status().loggedOn && status().reconnects === reconnects + 1, 10_000);
    await until(() => marksUp('BTCUSDT', mid.minus(6).toString(), mid.plus(6).toString()));
  });

  it('a logon the provider refuses (wrong password) gives no quotes and shows the session logged off', async () => {
    const provider = { ...session, name: 'lp2', port: await freePort() };
    const other = new FixSimulator(provider, t.ctx.log, [{ symbol: 'ETH/USDT', bid: '1', ask: '2', time: Date.now() }]);
    await other.start();
    const { FixFeedSource } = await import('./fix-feed.ts');
    const wrong = new FixFeedSource({
      market: market(),
      config: { ...t.config, fix: { mode: 'failover', sessions: [{ ...provider, password: 'not-the-password' }] } },
      log: t.ctx.log,
    });
    const quotes = ticks.length;
    try {
      wrong.start();
      await until(() => other.logons.length >= 1);
      await sleep(500);
      expect(other.logons[0]).toEqual({ username: 'tp-user', password: 'not-the-password' });
      expect(other.requests).toEqual([]);
      expect(wrong.sessions()[0]).toMatchObject({ name: 'lp2', loggedOn: false, logons: 0, quotes: 0 });
      expect(ticks.length).toBe(quotes);
    } finally {
      wrong.stop();
      other.stop();
    }
  });

  it('refuses a missing or bad FIX_CONFIG at start, naming the problem', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fix-config-'));
    const file = path.join(dir, 'fix.json');
    const env = { NODE_ENV: 'test', PRICE_SOURCE: 'fix', FIX_CONFIG: file };
    expect(() => loadConfig({ NODE_ENV: 'test', PRICE_SOURCE: 'fix' })).toThrow(/PRICE_SOURCE=fix needs FIX_CONFIG/);
    expect(() => loadConfig(env)).toThrow(/cannot read .*fix\.json \(ENOENT\)/);
    fs.writeFileSync(file, '{"sessions": [');
    expect(() => loadConfig(env)).toThrow(ConfigError);
    fs.writeFileSync(file, JSON.stringify({ sessions: [{ ...session, port: 'x', symbols: {} }] }));
    expect(() => loadConfig(env)).toThrow(/sessions\.0\.port[\s\S]*sessions\.0\.symbols: at least one symbol/);
    fs.writeFileSync(file, JSON.stringify({ sessions: [] }));
    expect(() => loadConfig(env)).toThrow(/at least one session/);
    fs.writeFileSync(file, JSON.stringify({ sessions: [session] }));
    expect(loadConfig(env).fix?.sessions[0]).toMatchObject({ name: 'lp1', heartbeatSeconds: 1, symbols: { BTCUSDT: 'BTC/USDT' } });
    fs.rmSync(dir, { recursive: true });
  });
});
