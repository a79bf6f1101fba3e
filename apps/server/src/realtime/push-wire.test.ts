import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServerMessage } from '@tp/contract/push-parse';
import { type ServerMessageName, serverMessages } from '@tp/contract/pushes';
import { strictSchema } from '@tp/contract/socket-docs';
import { staffSession } from '../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../test/test-app.ts';
import { api, demoTrader, submit, symbolId, tick, tradingApp } from '../../test/trading/test-kit.ts';
import { TestClient, type WsMessage } from './ws-test-client.ts';

/**
 * The frames the server sends on /v1/ws, one of every kind, captured through a real socket. Their
 * shape (every key in the order sent, and whether each value is a string, a number, null, an array
 * or an object; the value of `type`) is kept in a snapshot file: existing clients read these frames, so a change of a
 * field name, of nesting or of string-versus-number shows here as a failing test.
 */
type Shape = string | Shape[] | { [key: string]: Shape };

function shapeOf(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  // The `type` a client dispatches on is kept as its value.
  if (typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'type' ? `=${String(v)}` : shapeOf(v)]));
  return typeof value;
}

const BTC = 'BTCUSDT';

/** The declaration each captured frame must satisfy. */
const DECLARED_AS: Record<string, ServerMessageName> = {
  login_result_failed: 'login_result',
  login_result_staff: 'login_result',
  sub_result_refused: 'sub_result',
  unsub_result_refused: 'unsub_result',
  CHAT_support_desk: 'SUPPORT',
};

describe.each(dbTargets)('the frames of /v1/ws on %s', (target) => {
  let t: TestApp;
  let url = '';
  const clients: TestClient[] = [];
  beforeAll(async () => {
    t = await tradingApp(target, { WS_FLUSH_MS: '50' });
    await t.ctx.services.trading.alerts.start();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?lang=en`;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t?.ctx.services.trading.alerts.stop();
    await t?.close();
  });
  const connect = async () => {
    const c = await TestClient.connect(url);
    clients.push(c);
    return c;
  };
  const isType =
    (type: string, where: (m: WsMessage) => boolean = () => true) =>
    (m: WsMessage | string) =>
      typeof m === 'object' && m.type === type && where(m);

  /** Every kind of frame, keyed by a name that says which case it is. */
  async function captureAll(): Promise<Record<string, WsMessage | string>> {
    const frames: Record<string, WsMessage | string> = {};
    const trader = await demoTrader(t);
    const c = await connect();
    c.send('ping');
    frames.pong = await c.next((m) => m === 'pong');
    frames.error = await c.request('{not json', 'error');
    frames.login_result_failed = await c.request({ type: 'login', params: 'not-a-token' }, 'login_result');
    frames.login_result = await c.request({ type: 'login', params: trader.token }, 'login_result');
    frames.sub_result_refused = await c.request({ type: 'sub', params: 'NOPE' }, 'sub_result');
    for (const topic of ['FOREX_TRADE', 'FOREX_CLOSED', 'CHAT', 'DAY_MARKET', `KLINE.${BTC}`, `MARKET_DEPTH.${BTC}`]) {
      frames.sub_result = await c.request({ type: 'sub', params: topic }, 'sub_result');
    }

    await tick(t, BTC, '94990', '95010');
    frames.DAY_MARKET = await c.next(isType('DAY_MARKET', (m) => m.symbol === BTC && m.quotation.bid === '94990.00'));
    frames.KLINE = await c.next(isType('KLINE', (m) => m.symbol === BTC && m.kline.Period === '1min'));
    frames.MARKET_DEPTH = await c.next(isType('MARKET_DEPTH', (m) => m.bids[0][0] === '94990.00'));

    // A pending buy limit that the next tick fills: NOTICE (pending_filled) and FOREX_TRADE with the position.
    const btc = symbolId(t, BTC);
    const placed = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, status: 0, target_price: '94000', multiple: 10 });
    expect(placed.code).toBe(1);
    await tick(t, BTC, '93490', '93510');
    frames.NOTICE = await c.next(isType('NOTICE', (m) => m.kind === 'pending_filled' && m.order_id === placed.data.Id));
    frames.FOREX_TRADE = await c.next(isType('FOREX_TRADE', (m) => m.TransOrder.length === 1));
    expect((await api(t, trader, '/v1/api/forex/close', { id: placed.data.Id })).code).toBe(1);
    frames.FOREX_CLOSED = await c.next(isType('FOREX_CLOSED', (m) => m.id.includes(placed.data.Id)));
    frames.replay_result = await c.request({ type: 'replay', params: String((frames.NOTICE as WsMessage).seq) }, 'replay_result');

    const alert = await api(t, trader, '/v1/api/forex/alert/add', { forex_id: btc, price: '93600' });
    expect(alert.code).toBe(1);
    await tick(t, BTC, '93690', '93710');
    await t.ctx.services.trading.alerts.idle();
    frames.ALERT = await c.next(isType('ALERT'));

    const desk = await connect();
    frames.login_result_staff = await desk.request({ type: 'login', params: await staffSession(t, ['support']) }, 'login_result');
    expect(await desk.request({ type: 'sub', params: 'SUPPORT' }, 'sub_result')).toMatchObject({ code: 1 });
    expect((await call(t, 'POST', '/api/support/send', { body: 'Hello' }, { token: trader.token })).code).toBe(1);
    frames.CHAT = await c.next(isType('CHAT'));
    frames.CHAT_support_desk = await desk.next(isType('CHAT'));
    const dealer = await connect();
    await dealer.request({ type: 'login', params: await staffSession(t, ['risk']) }, 'login_result');
    expect(await dealer.request({ type: 'sub', params: 'DESK' }, 'sub_result')).toMatchObject({ code: 1 });
    // An open demo position, so that the desk's rows are in the frame.
    expect((await submit(t, trader, { type: 2, cont: '0.1', forex_id: btc, multiple: 10 })).code).toBe(1);
    frames.DESK = await dealer.next(isType('DESK', (m) => m.demo.symbols.length > 0));

    frames.unsub_result = await c.request({ type: 'unsub', params: 'DAY_MARKET' }, 'unsub_result');
    frames.unsub_result_refused = await c.request({ type: 'unsub', params: 'NOPE' }, 'unsub_result');
    frames.logout_result = await c.request({ type: 'logout', params: '' }, 'logout_result');
    expect(await c.request({ type: 'login', params: trader.token }, 'login_result')).toMatchObject({ code: 1 });
    expect((await call(t, 'POST', '/api/user/logout', {}, { token: trader.token })).code).toBe(1);
    frames.session_ended = await c.next(isType('session_ended'));
    return frames;
  }

  it('sends every kind of frame in the shape existing clients read', async () => {
    const frames = await captureAll();
    const shapes = Object.fromEntries(Object.entries(frames).map(([name, frame]) => [name, shapeOf(frame)]));
    await expect(JSON.stringify(shapes, null, 2) + '\n').toMatchFileSnapshot('./__snapshots__/push-wire.shapes.json');

    // Each frame is exactly what the contract declares (strict: no field missing or extra, all the way
    // down), and the clients' parser reads it as that message; every declared message was captured.
    for (const [captured, frame] of Object.entries(frames)) {
      const name = DECLARED_AS[captured] ?? (captured as ServerMessageName);
      expect(strictSchema(serverMessages[name].schema).safeParse(frame).error, captured).toBeUndefined();
      expect(parseServerMessage(typeof frame === 'string' ? frame : JSON.stringify(frame))?.name, captured).toBe(name);
    }
    const captured = new Set(Object.keys(frames).map((n) => DECLARED_AS[n] ?? n));
    expect(Object.keys(serverMessages).filter((name) => !captured.has(name))).toEqual([]);
  });
});
