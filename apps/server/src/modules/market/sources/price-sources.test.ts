import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { eq } from 'drizzle-orm';
import { call, createTestApp, dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { symbols } from '../../../platform/db/schema.ts';
import type { MarketServiceImpl } from '../market-service.ts';
import type { Tick } from '../types.ts';
import { ExternalFeedSource } from './external-feed.ts';
import { parseTickCsv, ReplaySource, SAMPLE_TICKS_FILE } from './replay.ts';
import { SimulatorSource } from './simulator.ts';
import { markUp } from '../quote-pipeline.ts';
import { dec } from '@tp/contract/decimal';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

describe.each(dbTargets)('price sources on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
    await t.ctx.services.trading.engine.start();
  });
  afterAll(async () => t?.close());

  const market = () => t.ctx.services.market as MarketServiceImpl;
  const deps = (env: Partial<TestApp['config']> = {}) => ({ market: market(), config: { ...t.config, ...env }, log: t.ctx.log });
  const collect = () => {
    const ticks: Tick[] = [];
    const off = market().onTick((tick) => ticks.push(tick));
    return { ticks, off };
  };

  it('simulates ticks at the configured rate, only for open markets', async () => {
    const { ticks, off } = collect();
    const sim = new SimulatorSource(deps({ PRICE_TICK_RATE: 50 }));
    sim.start();
    await sleep(300);
    sim.stop();
    off();
    const btc = market().symbolByCode('BTCUSDT')!;
    expect(ticks.filter((x) => x.symbolId === btc.id).length).toBeGreaterThanOrEqual(5);
    for (const x of ticks) expect(market().inSession(x.symbolId, x.time)).toBe(true);
  });

  it('parses the recorded tick file and replays it, sped up, stamped with the current time', async () => {
    const { ticks: recorded, skipped } = parseTickCsv(fs.readFileSync(SAMPLE_TICKS_FILE, 'utf8'));
    expect(recorded.length).toBeGreaterThan(400);
    expect(skipped).toBe(0);
    expect(parseTickCsv('time,code,bid,ask\n1,btcusdt,1.5,1.6\nbad,line\n2,ETHUSDT,-1,2\n3,ETHUSDT,2,2.1,7').ticks).toEqual([
      { time: 1, code: 'BTCUSDT', bid: '1.5', ask: '1.6' },
      { time: 3, code: 'ETHUSDT', bid: '2', ask: '2.1', volume: '7' },
    ]);

    const { ticks, off } = collect();
    const replay = new ReplaySource(deps({ PRICE_TICK_MULTIPLIER: 1000 }));
    const started = Date.now();
    replay.start();
    await until(() => replay.rounds >= 1);
    replay.stop();
    off();
    const lastBtc = recorded.filter((r) => r.code === 'BTCUSDT').at(-1)!;
    const btc = market().symbolByCode('BTCUSDT')!;
    const marked = markUp(btc, dec(lastBtc.bid), dec(lastBtc.ask));
    expect(market().quote(btc.id)).toMatchObject({ bid: marked.bid.toFixed(2), ask: marked.ask.toFixed(2) });
    const btcTicks = ticks.filter((x) => x.code === 'BTCUSDT');
    expect(btcTicks.length).toBeGreaterThanOrEqual(recorded.filter((r) => r.code === 'BTCUSDT').length);
    for (const x of btcTicks) expect(x.time).toBeGreaterThanOrEqual(started);
  });

  it('follows an external JSON feed, reconnects after a drop and flags a silent feed as stale', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    const sockets: WebSocket[] = [];
    server.on('connection', (ws) => sockets.push(ws));
    const feed = new ExternalFeedSource(
      deps({
        FEED_URL: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/feed`,
        FEED_SYMBOL_MAP: JSON.stringify({ 'BTC-USD': 'BTCUSDT', 'ETH-USD': 'ETHUSDT' }),
        FEED_STALE_MS: 300,
      }),
    );
    const btc = market().symbolByCode('BTCUSDT')!;
    const eth = market().symbolByCode('ETHUSDT')!;
    try {
      feed.start();
      await until(() => sockets.length === 1 && feed.status.connected);
      sockets[0]!.send(JSON.stringify({ s: 'BTC-USD', b: 91000.5, a: '91001.50', v: '3' }));
      sockets[0]!.send(
        JSON.stringify([
          { symbol: 'ETH-USD', bid: '3100.10', ask: '3100.90' },
          { symbol: 'DOGE', bid: '1', ask: '2' },
        ]),
      );
      sockets[0]!.send('not json');
      // Each quote gets its symbol's spread on top (ETHUSDT 1.50, BTCUSDT 20).
      await until(() => market().quote(eth.id)?.bid === '3099.35');
      expect(market().quote(eth.id)).toMatchObject({ ask: '3101.65' });
      expect(market().quote(btc.id)).toMatchObject({ bid: '90990.50', ask: '91011.50', mid: '91001.00' });

      // The feed server drops the connection: the adapter reconnects and follows the new one.
      sockets[0]!.terminate();
      await until(() => sockets.length === 2 && feed.status.connected);
      sockets[1]!.send(JSON.stringify({ s: 'BTC-USD', b: '92000', a: '92001' }));
      await until(() => market().quote(btc.id)?.bid === '91990.00');
      expect(feed.status.stale).toBe(false);

      // Silence: stale after FEED_STALE_MS, the silent connection is replaced, fresh quotes clear the flag.
      await until(() => feed.status.stale, 3000);
      await until(() => sockets.length === 3 && feed.status.connected, 3000);
      sockets[2]!.send(JSON.stringify({ s: 'BTC-USD', b: '93000', a: '93001' }));
      await until(() => market().quote(btc.id)?.bid === '92990.00');
      expect(feed.status.stale).toBe(false);
    } finally {
      feed.stop();
      for (const s of sockets) s.terminate();
      await new Promise((r) => server.close(r));
    }
  });

  it('through a real feed: adds the spread, holds a spike, refuses trading when the feed falls silent, resumes on the next tick', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    const sockets: WebSocket[] = [];
    server.on('connection', (ws) => sockets.push(ws));
    const feed = new ExternalFeedSource(
      deps({ FEED_URL: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/feed`, FEED_SYMBOL_MAP: undefined }),
    );
    const btc = market().symbolByCode('BTCUSDT')!;
    await t.ctx.db.update(symbols).set({ maxQuoteAgeSec: 1 }).where(eq(symbols.id, btc.id));
    await market().reloadSymbols();
    const created = await call(t, 'GET', '/api/user/createAccountDemoForU');
    const token = await t.ctx.services.sessions.create({ userId: created.data.id });
    const buy = () => call(t, 'GET', '/v1/api/forex/submit', { type: 1, cont: '0.01', forex_id: btc.id, multiple: 10 }, { token });
    const send = (bid: string, ask: string) => sockets[0]!.send(JSON.stringify({ s: 'BTCUSDT', b: bid, a: ask }));
    try {
      feed.start();
      await until(() => sockets.length === 1 && feed.status.connected);
      send('95000', '95000');
      await until(() => market().quote(btc.id)?.bid === '94990.00');
      expect(market().quote(btc.id)).toMatchObject({ bid: '94990.00', ask: '95010.00' });
      expect((await buy()).data).toMatchObject({ Price: '95010.00' });

      const held = market()
        .feedHealth()
        .find((h) => h.code === 'BTCUSDT')!.suspectTicks;
      send('9.50', '9.50');
      send('95100', '95100');
      await until(() => market().quote(btc.id)?.bid === '95090.00');
      expect(
        market()
          .feedHealth()
          .find((h) => h.code === 'BTCUSDT')!.suspectTicks,
      ).toBe(held + 1);

      await until(() => !market().isOpen(btc.id), 3000);
      expect(
        market()
          .feedHealth()
          .find((h) => h.code === 'BTCUSDT')!.state,
      ).toBe('stale');
      expect(await buy()).toMatchObject({ code: 2001 });

      send('95200', '95200');
      await until(() => market().isOpen(btc.id));
      expect((await buy()).data).toMatchObject({ Price: '95210.00' });
    } finally {
      await t.ctx.db.update(symbols).set({ maxQuoteAgeSec: 30 }).where(eq(symbols.id, btc.id));
      await market().reloadSymbols();
      feed.stop();
      for (const s of sockets) s.terminate();
      await new Promise((r) => server.close(r));
    }
  });

  it('through a real feed: quotes stamped by the source (time, ts or t) age from that stamp, so a lagging upstream goes stale', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    const sockets: WebSocket[] = [];
    server.on('connection', (ws) => sockets.push(ws));
    const feed = new ExternalFeedSource(
      deps({ FEED_URL: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/feed`, FEED_SYMBOL_MAP: undefined }),
    );
    const eth = market().symbolByCode('ETHUSDT')!;
    await t.ctx.db.update(symbols).set({ maxQuoteAgeSec: 2 }).where(eq(symbols.id, eth.id));
    await market().reloadSymbols();
    const mid = market().quote(eth.id)!.mid;
    const send = (bid: string, stamp: Record<string, unknown>) =>
      sockets[0]!.send(JSON.stringify({ s: 'ETHUSDT', b: bid, a: bid, ...stamp }));
    try {
      feed.start();
      await until(() => sockets.length === 1 && feed.status.connected);
      // Stale first (no live tick for 2 seconds), then quotes priced 10 seconds ago by the source arrive.
      await until(() => !market().isOpen(eth.id));
      const at = (n: number) => dec(mid).plus(n).toFixed(eth.pricePrecision);
      send(at(1), { t: Date.now() - 10_000 });
      await until(() => market().quote(eth.id)!.mid === at(1));
      expect(market().isOpen(eth.id)).toBe(false);
      send(at(2), { ts: new Date(Date.now() - 10_000).toISOString() });
      await until(() => market().quote(eth.id)!.mid === at(2));
      expect(market().isOpen(eth.id)).toBe(false);
      // A fresh stamp (in seconds) makes it live; a feed without stamps keeps working as before.
      send(at(3), { time: Math.floor(Date.now() / 1000) });
      await until(() => market().isOpen(eth.id));
      await until(() => !market().isOpen(eth.id));
      send(at(4), {});
      await until(() => market().isOpen(eth.id));
    } finally {
      await t.ctx.db.update(symbols).set({ maxQuoteAgeSec: 30 }).where(eq(symbols.id, eth.id));
      await market().reloadSymbols();
      feed.stop();
      for (const s of sockets) s.terminate();
      await new Promise((r) => server.close(r));
    }
  });
});
