import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSession } from '../../test/auth-helpers.ts';
import { call, createTestApp, dbTargets, type TestApp } from '../../test/test-app.ts';
import { TestClient, type WsMessage } from './ws-test-client.ts';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One anonymous client floods the socket; the server closes it within its budget and everyone
 * else keeps their ticks and health answers. Figures are printed (p50/p99 of /health/live and of
 * the tick delay seen by another client during the flood).
 */
describe.each(dbTargets)('socket budgets on %s', (target) => {
  let t: TestApp;
  let base = '';
  const clients: TestClient[] = [];
  beforeAll(async () => {
    t = await createTestApp(target, { WS_FLUSH_MS: '10', MARKET_ALWAYS_OPEN: '1', HISTORY_BARS: '0' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t?.close();
  });
  const connect = async () => {
    const c = await TestClient.connect(`ws://${base}/v1/ws?lang=en`);
    clients.push(c);
    return c;
  };

  it('a few failed logins, then the socket is closed', async () => {
    const c = await connect();
    for (let i = 0; i < 4; i++)
      expect(await c.request({ type: 'login', params: `bogus-${i}` }, 'login_result')).toMatchObject({ code: 999 });
    c.send({ type: 'login', params: 'bogus-last' });
    expect(await c.waitClosed()).toEqual({ code: 1008, reason: 'Too many failed logins' });
  });

  it('15,000 login frames from one client: it is closed, other clients’ ticks and /health/live stay fast', async () => {
    const reader = await connect();
    await reader.request({ type: 'sub', params: 'DAY_MARKET' }, 'sub_result');
    const market = t.ctx.services.market;
    const btc = market.symbolByCode('BTCUSDT')!;
    const attacker = await connect();

    // 15,000 login frames (about 1.7 MB), built before the measuring starts and written in one go, as a
    // hostile client would: masked client frames with a zero mask, so the test's own cost is one write.
    const payload = Buffer.from(JSON.stringify({ type: 'login', params: 'x'.repeat(80) }));
    const frame = Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
    const flood = Buffer.concat(Array.from({ length: 15_000 }, () => frame));
    // Warm up (the first fetch loads the HTTP client), then measure from just before the flood.
    await (await fetch(`http://${base}/health/live`)).text();
    // The same probes run for a second before the flood (this machine's own noise) and during it.
    let health: number[] = [];
    let ticks: number[] = [];
    let flooding = true;
    const probeHealth = (async () => {
      while (flooding) {
        const started = performance.now();
        const res = await fetch(`http://${base}/health/live`);
        await res.text();
        health.push(performance.now() - started);
        await sleep(5);
      }
    })();
    const probeTicks = (async () => {
      for (let step = 1; flooding; step++) {
        const price = (90_000 + step).toFixed(2);
        const from = reader.messages.length;
        const started = performance.now();
        market.publishTick({ symbolId: btc.id, bid: price, ask: price, time: Date.now() });
        await reader.next(
          (m: WsMessage | string) => typeof m === 'object' && m.type === 'DAY_MARKET' && m.quotation?.close === price,
          5000,
          from,
        );
        ticks.push(performance.now() - started);
        await sleep(10);
      }
    })();
    await sleep(1000);
    const quiet = { health: percentile(health, 99), ticks: percentile(ticks, 99) };
    health = [];
    ticks = [];
    (attacker.ws as unknown as { _socket: Socket })._socket.write(flood);
    const closed = await attacker.waitClosed(10_000);
    await sleep(300);
    flooding = false;
    await Promise.all([probeHealth, probeTicks]);

    const figures = {
      health: { n: health.length, p50: percentile(health, 50), p99: percentile(health, 99), max: Math.max(...health) },
      ticks: { n: ticks.length, p50: percentile(ticks, 50), p99: percentile(ticks, 99), max: Math.max(...ticks) },
    };
    console.log(
      `socket flood (${target}): /health/live ms ${JSON.stringify(figures.health)}; tick delay ms ${JSON.stringify(figures.ticks)}; p99 before the flood ${JSON.stringify(quiet)}`,
    );
    expect(closed).toEqual({ code: 1008, reason: 'Too many messages' });
    expect(reader.closed).toBeNull();
    // The flood adds at most 50 ms to the 99th percentile this machine shows without it.
    expect(figures.health.p99).toBeLessThan(quiet.health + 50);
    expect(figures.ticks.p99).toBeLessThan(quiet.ticks + 50);
  });

  it('a support desk socket stops getting chats once the support role is removed', async () => {
    const admin = await staffSession(t, ['admin']);
    const agent = await staffSession(t, ['support']);
    const desk = await connect();
    expect(await desk.request({ type: 'login', params: agent }, 'login_result')).toMatchObject({ code: 1 });
    expect(await desk.request({ type: 'sub', params: 'SUPPORT' }, 'sub_result')).toMatchObject({ code: 1 });
    const me = (await call(t, 'GET', '/api/admin/me', {}, { token: agent })).data as { id: number };
    expect(
      (await call(t, 'POST', '/api/admin/staff/roles', { id: me.id, roles: JSON.stringify(['content']) }, { token: admin })).code,
    ).toBe(1);
    await desk.next((m) => typeof m === 'object' && m.type === 'session_ended');
    const from = desk.messages.length;
    t.ctx.bus.publish('push:staff:support', { type: 'CHAT', user_id: 1, message: { id: 2, body: 'secret' } });
    await sleep(150);
    expect(desk.ofType('CHAT', from)).toEqual([]);
  });
});
