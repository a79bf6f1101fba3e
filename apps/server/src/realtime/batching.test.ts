import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { dbTargets } from '../../test/test-app.ts';
import { insertUser } from '../modules/auth/user-repository.ts';
import { BusChannels } from '../platform/bus-channels.ts';
import { type TestClient, useLiveGateway, type WsMessage } from './ws-test-client.ts';

/** The longest wait between flush passes under load; a quiet gateway must not wait for it. */
const MAX_FLUSH_MS = 1000;

describe.each(dbTargets)('quote batching on %s', (target) => {
  const live = useLiveGateway(target, { WS_FLUSH_MS: String(MAX_FLUSH_MS), MARKET_ALWAYS_OPEN: '1' });
  const connect = live.connect;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const btc = () => live.t.ctx.services.market.symbolByCode('BTCUSDT')!;
  const tick = (price: string) => live.t.ctx.services.market.publishTick({ symbolId: btc().id, bid: price, ask: price, time: Date.now() });
  const isQuote = (close?: string) => (m: WsMessage | string) =>
    typeof m === 'object' && m.type === 'DAY_MARKET' && m.symbol === 'BTCUSDT' && (close === undefined || m.quotation.close === close);
  const btcCloses = (c: TestClient, from: number) =>
    c
      .ofType('DAY_MARKET', from)
      .filter((m) => m.symbol === 'BTCUSDT')
      .map((m) => m.quotation.close as string);

  it('delivers a quote to a client of a quiet gateway within a few ms, not at the longest flush interval', async () => {
    const c = await connect();
    await c.request({ type: 'sub', params: 'DAY_MARKET' }, 'sub_result');
    await c.next(isQuote());
    const delays: number[] = [];
    for (let i = 1; i <= 7; i++) {
      const from = c.messages.length;
      const price = `9700${i}.00`;
      const sent = Date.now();
      tick(price);
      await c.next(isQuote(price), 3000, from);
      delays.push(Date.now() - sent);
      await sleep(30);
    }
    delays.sort((a, b) => a - b);
    // The median resists a loaded test machine; a fixed flush timer would put it near MAX_FLUSH_MS / 2.
    expect(delays[3]).toBeLessThan(50);
  });

  it('keeps only the newest quote per symbol for a client whose socket is backed up, and sends it once it reads again', async () => {
    const gw = live.t.ctx.services.realtime;
    const user = await insertUser(live.t.ctx.db, { email: `batch${Date.now()}@example.com` });
    const token = await live.t.ctx.services.sessions.create({ userId: user.id });
    const c = await connect();
    await c.request({ type: 'login', params: token }, 'login_result');
    await c.request({ type: 'sub', params: 'FOREX_CLOSED' }, 'sub_result');
    await c.request({ type: 'sub', params: 'DAY_MARKET' }, 'sub_result');
    await c.next(isQuote());
    const server = [...gw.connections].find((conn) => conn.user?.id === user.id)!;
    const from = c.messages.length;

    // The client stops reading; large events (never coalesced) fill the kernel buffers until the server holds bytes.
    const socket = (c.ws as unknown as { _socket: Socket })._socket;
    socket.pause();
    const bigEvent = { type: 'FOREX_CLOSED', id: Array.from({ length: 20_000 }, (_, i) => 1_000_000 + i) };
    for (let i = 0; i < 400 && server.buffered === 0; i++) {
      live.t.ctx.bus.publish(BusChannels.userChannel(user.id), bigEvent);
      await sleep(2);
    }
    expect(server.buffered).toBeGreaterThan(0);
    const backlog = server.buffered;

    for (let i = 10; i <= 40; i++) {
      tick(`960${i}.00`);
      await sleep(5);
    }
    expect(server.buffered).toBe(backlog);

    socket.resume();
    await c.next(isQuote('96040.00'), 5000, from);
    await sleep(100);
    expect(btcCloses(c, from)).toEqual(['96040.00']);
    expect(c.closed).toBeNull();
  });
});
