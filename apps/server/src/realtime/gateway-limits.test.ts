import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { dbTargets } from '../../test/test-app.ts';
import { insertUser } from '../modules/auth/user-repository.ts';
import { useLiveGateway } from './ws-test-client.ts';
import { BusChannels } from '../platform/bus-channels.ts';

const MAX_BUFFERED = 64 * 1024;
const SLOW_MS = 400;

describe.each(dbTargets)('live socket limits on %s', (target) => {
  const live = useLiveGateway(target, {
      WS_FLUSH_MS: '10',
      WS_MAX_CONNECTIONS_PER_IP: '4',
      WS_MAX_BUFFERED_BYTES: String(MAX_BUFFERED),
      WS_SLOW_CLIENT_MS: String(SLOW_MS),
      MARKET_ALWAYS_OPEN: '1',
    });
  const connect = live.connect;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('refuses connections beyond the per-IP limit with a reason, and accepts again once one closes', async () => {
    const open = [await connect(), await connect(), await connect(), await connect()];
    const extra = await connect();
    expect(await extra.waitClosed()).toEqual({ code: 1008, reason: 'Too many connections from your address' });
    open[0]!.close();
    await open[0]!.waitClosed();
    await sleep(50);
    const again = await connect();
    again.send('ping');
    await again.next((m) => m === 'pong');
    for (const c of [...open, again]) c.close();
    await sleep(50);
  });

  it('stops queueing quotes for a client that does not read, drops it cleanly, and keeps serving the others', async () => {
    const market = live.t.ctx.services.market;
    const gw = live.t.ctx.services.realtime;
    const user = await insertUser(live.t.ctx.db, { email: `slow${Date.now()}@example.com` });
    const token = await live.t.ctx.services.sessions.create({ userId: user.id });
    const reader = await connect();
    const stalled = await connect();
    for (const c of [reader, stalled]) {
      await c.request({ type: 'sub', params: 'DAY_MARKET' }, 'sub_result');
      await c.request({ type: 'sub', params: 'KLINE.BTCUSDT' }, 'sub_result');
    }
    await stalled.request({ type: 'login', params: token }, 'login_result');
    await stalled.request({ type: 'sub', params: 'FOREX_CLOSED' }, 'sub_result');
    await stalled.request({ type: 'sub', params: 'FOREX_TRADE' }, 'sub_result');
    const server = [...gw.connections].find((c) => c.user?.id === user.id)!;

    // The stalled client stops reading; large FOREX_CLOSED events (never coalesced) fill the kernel buffers fast.
    (stalled.ws as unknown as { _socket: Socket })._socket.pause();
    const bigEvent = { type: 'FOREX_CLOSED', id: Array.from({ length: 20_000 }, (_, i) => 1_000_000 + i) };
    for (let i = 0; i < 400 && server.buffered <= MAX_BUFFERED; i++) {
      live.t.ctx.bus.publish(BusChannels.userChannel(user.id), bigEvent);
      await sleep(2);
    }
    expect(server.buffered).toBeGreaterThan(MAX_BUFFERED);

    // From now on quotes, candles and account snapshots only replace each other: the buffer does not grow.
    const backlog = server.buffered;
    const droppedBefore = gw.stats.dropped;
    const started = Date.now();
    for (let step = 1; gw.stats.dropped === droppedBefore && Date.now() - started < SLOW_MS * 10; step++) {
      for (const s of market.symbols()) {
        const q = market.quote(s.id)!;
        market.publishTick({ symbolId: s.id, bid: q.bid, ask: q.ask, volume: String(step), time: Date.now() });
      }
      live.t.ctx.bus.publish(BusChannels.userChannel(user.id), { type: 'FOREX_TRADE', To: user.id, TransOrder: [] });
      expect(server.buffered).toBeLessThanOrEqual(backlog);
      await sleep(5);
    }
    expect(gw.stats.dropped).toBe(droppedBefore + 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SLOW_MS);

    expect(reader.closed).toBeNull();
    const from = reader.messages.length;
    const btc = market.symbolByCode('BTCUSDT')!;
    market.publishTick({ symbolId: btc.id, bid: '90000.00', ask: '90000.00', time: Date.now() });
    await reader.next((m) => typeof m === 'object' && m.type === 'DAY_MARKET' && m.quotation.close === '90000.00', 3000, from);

    // Once it reads again, the dropped client finds the close frame behind its backlog.
    (stalled.ws as unknown as { _socket: Socket })._socket.resume();
    expect(await stalled.waitClosed(5000)).toEqual({ code: 1013, reason: 'The connection could not keep up with the updates' });
  });
});
