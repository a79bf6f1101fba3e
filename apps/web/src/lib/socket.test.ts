import { WS_CONNECT_TIMEOUT_MS } from '@tp/contract/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pushSamples } from '@tp/contract/push-samples';
import {
  backoffDelay,
  DEAD_AFTER_MS,
  PING_INTERVAL_MS,
  SocketClient,
  type SocketMessage,
  type SocketStatus,
  type SocketTopic,
  type WebSocketLike,
} from './socket';

class FakeWebSocket implements WebSocketLike {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closed = false;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }

  send(data: string) {
    this.sent.push(data);
  }

  close() {
    this.closed = true;
    this.readyState = 3;
  }

  /** Test helpers: what the server side does. */
  accept() {
    this.readyState = 1;
    this.onopen?.({});
  }

  receive(data: string | object) {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) });
  }

  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }

  json() {
    return this.sent.filter((s) => s.startsWith('{')).map((s) => JSON.parse(s) as { type: string; params: string });
  }

  pings() {
    return this.sent.filter((s) => s === 'ping').length;
  }
}

let token: string | null = null;
const sockets = () => FakeWebSocket.instances;
const last = () => sockets()[sockets().length - 1]!;

function makeClient(options: { random?: () => number } = {}) {
  return new SocketClient({
    url: () => 'ws://test/v1/ws',
    getToken: () => token,
    WebSocketImpl: FakeWebSocket,
    ...options,
  });
}

/** Drops the connection `times` times and returns how long each reconnect took (to 100 ms). */
function reconnectDelays(times: number): number[] {
  const delays: number[] = [];
  for (let attempt = 0; attempt < times; attempt += 1) {
    const before = sockets().length;
    last().drop();
    let waited = 0;
    while (sockets().length === before) {
      vi.advanceTimersByTime(100);
      waited += 100;
    }
    delays.push(waited);
  }
  return delays;
}

let client: SocketClient;

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.instances = [];
  token = null;
  client = makeClient();
});

afterEach(() => {
  client.stop();
  vi.useRealTimers();
});

describe('connecting', () => {
  it('start() opens one connection to the socket path and is idempotent', () => {
    client.start();
    client.start();
    expect(sockets()).toHaveLength(1);
    expect(last().url).toBe('ws://test/v1/ws');
    last().accept();
    client.start();
    expect(sockets()).toHaveLength(1);
  });

  it('reports its status', () => {
    const seen: SocketStatus[] = [];
    client.onStatus((status) => seen.push(status));
    client.start();
    last().accept();
    last().drop();
    expect(seen).toEqual(['connecting', 'open', 'closed']);
    expect(client.status).toBe('closed');
  });

  it('logs in with the token once open', () => {
    token = 'tok-1';
    client.start();
    expect(last().sent).toEqual([]);
    last().accept();
    expect(last().json()).toEqual([{ type: 'login', params: 'tok-1' }]);
  });

  it('does not log in without a session', () => {
    client.start();
    last().accept();
    expect(last().json()).toEqual([]);
  });

  it('gives up a connection that does not open within the connect timeout and retries', () => {
    client.start();
    vi.advanceTimersByTime(WS_CONNECT_TIMEOUT_MS - 1);
    expect(last().closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(sockets()[0]!.closed).toBe(true);
    expect(client.status).toBe('closed');
    vi.advanceTimersByTime(10_000);
    expect(sockets().length).toBeGreaterThanOrEqual(2);
  });
});

describe('heartbeat', () => {
  it('sends a ping every half second', () => {
    client.start();
    last().accept();
    vi.advanceTimersByTime(PING_INTERVAL_MS - 1);
    expect(last().pings()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(last().pings()).toBe(1);
    last().receive('pong');
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(last().pings()).toBe(2);
  });

  it('stays connected while pongs come back', () => {
    client.start();
    const ws = last();
    ws.accept();
    for (let i = 0; i < 20; i += 1) {
      vi.advanceTimersByTime(PING_INTERVAL_MS);
      ws.receive('pong');
    }
    expect(sockets()).toHaveLength(1);
    expect(ws.closed).toBe(false);
    expect(ws.pings()).toBe(20);
  });

  it('declares a silent connection dead within 2 s and reconnects', () => {
    client.start();
    const first = last();
    first.accept();
    const statuses: string[] = [];
    client.onStatus((status) => statuses.push(status));
    vi.advanceTimersByTime(DEAD_AFTER_MS - PING_INTERVAL_MS);
    expect(first.closed).toBe(false);
    expect(client.status).toBe('open');
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(first.closed).toBe(true);
    expect(statuses[0]).toBe('closed');
    vi.advanceTimersByTime(1_000);
    expect(sockets()).toHaveLength(2);
  });

  it('any message resets the silence count, a pong or a push', () => {
    client.start();
    const ws = last();
    ws.accept();
    vi.advanceTimersByTime(DEAD_AFTER_MS - PING_INTERVAL_MS);
    ws.receive('pong');
    vi.advanceTimersByTime(DEAD_AFTER_MS - PING_INTERVAL_MS);
    ws.receive(JSON.stringify({ type: 'DAY_MARKET', symbol: 'EURUSD' }));
    vi.advanceTimersByTime(DEAD_AFTER_MS - PING_INTERVAL_MS);
    expect(ws.closed).toBe(false);
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(ws.closed).toBe(true);
  });

  it('the browser going offline closes the connection at once', () => {
    client.start();
    const ws = last();
    ws.accept();
    client.networkLost();
    expect(ws.closed).toBe(true);
    expect(client.status).toBe('closed');
  });
});

describe('reconnecting', () => {
  it('reconnects after the server closes, with a growing backoff capped at 10 s: jitter at its top and at its bottom', () => {
    client = makeClient({ random: () => 1 });
    client.start();
    last().accept();
    expect(reconnectDelays(6)).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    client.stop();
    client = makeClient({ random: () => 0 });
    client.start();
    last().accept();
    expect(reconnectDelays(6)).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000]);
  });

  it('clients cut off together do not come back together: the delays are spread over half the backoff to all of it', () => {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const ceiling = Math.min(10_000, 1_000 * 2 ** attempt);
      const delays = Array.from({ length: 200 }, () => backoffDelay(attempt, 1_000, 10_000));
      for (const delay of delays) {
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
      // 200 clients land on many different beats, across most of the window.
      expect(new Set(delays).size).toBeGreaterThan(100);
      expect(Math.max(...delays) - Math.min(...delays)).toBeGreaterThan(ceiling * 0.4);
    }
  });

  it('reconnect attempts of many clients are spread in time', () => {
    const firstRetry: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      FakeWebSocket.instances = [];
      const c = makeClient();
      c.start();
      last().accept();
      client = c;
      firstRetry.push(reconnectDelays(2)[1]!);
      c.stop();
    }
    expect(Math.min(...firstRetry)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...firstRetry)).toBeLessThanOrEqual(2_000);
    expect(new Set(firstRetry).size).toBeGreaterThan(3);
  });

  it('resets the backoff after a successful connection', () => {
    client.start();
    last().accept();
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().drop();
    vi.advanceTimersByTime(2_000);
    expect(sockets()).toHaveLength(3);
    last().accept();
    last().drop();
    vi.advanceTimersByTime(1_000);
    expect(sockets()).toHaveLength(4);
  });

  it('logs in again and re-subscribes every topic with listeners after reconnecting', () => {
    token = 'tok-1';
    client.start();
    last().accept();
    client.subscribe('DAY_MARKET', () => {});
    client.subscribe('KLINE.BTCUSDT', () => {});
    const gone = client.subscribe('FOREX_TRADE', () => {});
    gone();
    last().drop();
    vi.advanceTimersByTime(1_000);
    const second = last();
    expect(second).not.toBe(sockets()[0]);
    second.accept();
    expect(second.json()).toEqual([
      { type: 'login', params: 'tok-1' },
      { type: 'sub', params: 'DAY_MARKET' },
      { type: 'sub', params: 'KLINE.BTCUSDT' },
    ]);
  });

  it('stop() ends the connection and all retries', () => {
    client.start();
    last().accept();
    client.stop();
    expect(last().closed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(sockets()).toHaveLength(1);
    expect(client.status).toBe('idle');
  });
});

describe('topics', () => {
  it('subscribes on the first listener and unsubscribes after the last', () => {
    client.start();
    const ws = last();
    ws.accept();
    const a = client.subscribe('DAY_MARKET', () => {});
    const b = client.subscribe('DAY_MARKET', () => {});
    expect(ws.json()).toEqual([{ type: 'sub', params: 'DAY_MARKET' }]);
    a();
    a();
    expect(ws.json()).toHaveLength(1);
    b();
    expect(ws.json()).toEqual([
      { type: 'sub', params: 'DAY_MARKET' },
      { type: 'unsub', params: 'DAY_MARKET' },
    ]);
  });

  it('NOTICE and ALERT come to a logged-in connection unasked: listened to, never subscribed', () => {
    client.start();
    const ws = last();
    ws.accept();
    const notices: SocketMessage[] = [];
    const off = client.subscribe('NOTICE', (m) => notices.push(m));
    client.subscribe('ALERT', () => {});
    const notice = { ...pushSamples.NOTICE, kind: 'take_profit', order_id: 1 };
    ws.receive(notice);
    off();
    expect(notices).toEqual([notice]);
    expect(ws.json().filter((m: { type: string }) => m.type === 'sub' || m.type === 'unsub')).toEqual([]);
  });

  it('subscriptions made before the connection opens are sent on open', () => {
    client.start();
    client.subscribe('FOREX_CLOSED', () => {});
    expect(last().sent).toEqual([]);
    last().accept();
    expect(last().json()).toEqual([{ type: 'sub', params: 'FOREX_CLOSED' }]);
  });

  it('dispatches pushes by type, KLINE by symbol', () => {
    client.start();
    const ws = last();
    ws.accept();
    const got: Record<string, SocketMessage[]> = { day: [], btc: [], eth: [], trade: [], closed: [] };
    client.subscribe('DAY_MARKET', (m) => got.day!.push(m));
    client.subscribe('KLINE.BTCUSDT', (m) => got.btc!.push(m));
    client.subscribe('KLINE.ETHUSDT', (m) => got.eth!.push(m));
    client.subscribe('FOREX_TRADE', (m) => got.trade!.push(m));
    client.subscribe('FOREX_CLOSED', (m) => got.closed!.push(m));

    ws.receive(pushSamples.DAY_MARKET);
    ws.receive({ ...pushSamples.KLINE, symbol: 'BTCUSDT' });
    ws.receive({ ...pushSamples.FOREX_TRADE, To: 7, TransOrder: [] });
    ws.receive({ type: 'FOREX_CLOSED', id: [3, 4] });
    ws.receive({ type: 'sub_result', code: 1, msg: 'ok' });
    ws.receive('not json');

    expect(got.day).toHaveLength(1);
    expect(got.btc).toEqual([{ ...pushSamples.KLINE, symbol: 'BTCUSDT' }]);
    expect(got.eth).toHaveLength(0);
    expect(got.trade).toHaveLength(1);
    expect(got.closed![0]).toMatchObject({ id: [3, 4] });
  });

  it('drops a frame that does not match its declaration in the contract (a field missing, a number sent as text)', () => {
    client.start();
    const ws = last();
    ws.accept();
    const got: SocketMessage[] = [];
    client.subscribe('DAY_MARKET', (m) => got.push(m));
    client.subscribe('FOREX_CLOSED', (m) => got.push(m));
    const { quotation: _missing, ...withoutQuotation } = pushSamples.DAY_MARKET;
    ws.receive(withoutQuotation);
    ws.receive({ type: 'FOREX_CLOSED', id: ['3'] });
    ws.receive({ ...pushSamples.DAY_MARKET, time: String(pushSamples.DAY_MARKET.time) });
    expect(got).toEqual([]);
    ws.receive(pushSamples.DAY_MARKET);
    expect(got).toEqual([pushSamples.DAY_MARKET]);
  });

  it('a failing handler does not stop the others', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    client.start();
    last().accept();
    const second = vi.fn();
    client.subscribe('DAY_MARKET', () => {
      throw new Error('boom');
    });
    client.subscribe('DAY_MARKET', second);
    last().receive({ ...pushSamples.DAY_MARKET, symbol: 'X' });
    expect(second).toHaveBeenCalledOnce();
    error.mockRestore();
  });
});

describe('relogin', () => {
  it('sends logout then login with the new token', () => {
    token = 'old';
    client.start();
    const ws = last();
    ws.accept();
    token = 'new';
    client.relogin();
    expect(ws.json()).toEqual([
      { type: 'login', params: 'old' },
      { type: 'logout', params: '' },
      { type: 'login', params: 'new' },
    ]);
  });

  it('after logout only sends logout', () => {
    token = 'old';
    client.start();
    last().accept();
    token = null;
    client.relogin();
    expect(
      last()
        .json()
        .map((m) => m.type),
    ).toEqual(['login', 'logout']);
  });

  it('does nothing before the connection is open; login happens on open', () => {
    client.start();
    token = 'tok';
    client.relogin();
    expect(last().sent).toEqual([]);
    last().accept();
    expect(last().json()).toEqual([{ type: 'login', params: 'tok' }]);
  });
});

describe('session_ended', () => {
  it('hands the push to onSessionEnded and to no topic handler', () => {
    const ended: SocketMessage[] = [];
    const handled: SocketMessage[] = [];
    client = new SocketClient({
      url: () => 'ws://test/v1/ws',
      getToken: () => 'tok',
      WebSocketImpl: FakeWebSocket,
      onSessionEnded: (m) => ended.push(m),
    });
    // session_ended is no topic (the types refuse it); a handler registered under its name anyway hears nothing.
    client.subscribe('session_ended' as SocketTopic, (m) => handled.push(m));
    client.start();
    last().accept();
    last().receive({ type: 'session_ended', reason: 'password_changed', msg: 'x' });
    expect(ended).toEqual([{ type: 'session_ended', reason: 'password_changed', msg: 'x' }]);
    expect(handled).toEqual([]);
  });
});

describe('login answers', () => {
  const loginsSent = (ws: FakeWebSocket) => ws.json().filter((m) => m.type === 'login').length;
  /** Time passes on a live connection: the server answers every ping. */
  const alive = (ws: FakeWebSocket, ms: number) => {
    for (let left = ms; left > 0; left -= 100) {
      vi.advanceTimersByTime(Math.min(100, left));
      ws.receive('pong');
    }
  };

  it('retries a login the server could not check (500) with backoff, and says so until it passes', () => {
    token = 'tok';
    client = makeClient({ random: () => 1 });
    const changes: boolean[] = [];
    client.onLoginState(() => changes.push(client.loginRetrying));
    client.start();
    const ws = last();
    ws.accept();
    expect(loginsSent(ws)).toBe(1);
    ws.receive({ type: 'login_result', code: 500, msg: 'Could not log in right now. Retrying…' });
    expect(client.loginRetrying).toBe(true);
    vi.advanceTimersByTime(999);
    expect(loginsSent(ws)).toBe(1);
    vi.advanceTimersByTime(1);
    expect(loginsSent(ws)).toBe(2);
    ws.receive({ type: 'login_result', code: 500, msg: 'again' });
    alive(ws, 1_999);
    expect(loginsSent(ws)).toBe(2);
    alive(ws, 1);
    expect(loginsSent(ws)).toBe(3);
    ws.receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    expect(client.loginRetrying).toBe(false);
    alive(ws, 60_000);
    expect(loginsSent(ws)).toBe(3);
    expect(changes).toEqual([true, false]);
    // The connection itself stayed up all along.
    expect(sockets()).toHaveLength(1);
  });

  it('does not retry a token the server refused (999)', () => {
    token = 'bad';
    client.start();
    const ws = last();
    ws.accept();
    ws.receive({ type: 'login_result', code: 999, msg: 'Session expired' });
    expect(client.loginRetrying).toBe(false);
    alive(ws, 60_000);
    expect(loginsSent(ws)).toBe(1);
  });

  it('a pending login retry ends with the connection; the new connection logs in at once', () => {
    token = 'tok';
    client.start();
    last().accept();
    last().receive({ type: 'login_result', code: 500, msg: 'x' });
    last().drop();
    expect(client.loginRetrying).toBe(false);
    vi.advanceTimersByTime(1_000);
    const second = last();
    expect(loginsSent(sockets()[0]!)).toBe(1);
    second.accept();
    expect(loginsSent(second)).toBe(1);
  });
});

describe('resync after a reconnect', () => {
  it('is not signalled for the first connection, and is once the reconnected session is logged in again', () => {
    token = 'tok';
    const resyncs = vi.fn();
    client.onResync(resyncs);
    client.start();
    last().accept();
    last().receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    expect(resyncs).not.toHaveBeenCalled();
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().accept();
    // Logged out on the new connection until the server says otherwise: pushes are not flowing yet.
    expect(resyncs).not.toHaveBeenCalled();
    last().receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    expect(resyncs).toHaveBeenCalledOnce();
    last().receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    expect(resyncs).toHaveBeenCalledOnce();
  });

  it('is signalled when a first login that the server could not check finally passes', () => {
    token = 'tok';
    const resyncs = vi.fn();
    client.onResync(resyncs);
    client.start();
    last().accept();
    last().receive({ type: 'login_result', code: 500, msg: 'x' });
    vi.advanceTimersByTime(1_000);
    expect(resyncs).not.toHaveBeenCalled();
    last().receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    expect(resyncs).toHaveBeenCalledOnce();
  });

  it('without a session, is signalled as soon as the connection is back', () => {
    const resyncs = vi.fn();
    client.onResync(resyncs);
    client.start();
    last().accept();
    expect(resyncs).not.toHaveBeenCalled();
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().accept();
    expect(resyncs).toHaveBeenCalledOnce();
  });
});

describe('replay of missed pushes after a reconnect', () => {
  const notice = (seq: number) => ({ ...pushSamples.NOTICE, seq });
  const closed = (seq: number) => ({ ...pushSamples.FOREX_CLOSED, seq });
  const replays = (ws: FakeWebSocket) => ws.json().filter((m) => m.type === 'replay');
  const reconnect = () => {
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().accept();
  };

  it('asks for what followed the last seq seen once logged in again, and drops a push it has seen', () => {
    token = 'tok';
    const notices = vi.fn();
    const closes = vi.fn();
    client.subscribe('NOTICE', notices);
    client.subscribe('FOREX_CLOSED', closes);
    client.start();
    last().accept();
    last().receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    expect(replays(last())).toEqual([]);
    last().receive(notice(41));
    last().receive(closed(42));
    last().receive(closed(42));
    expect([notices.mock.calls.length, closes.mock.calls.length]).toEqual([1, 1]);

    reconnect();
    // Not before the login is accepted: the server replays to a logged-in trader only.
    expect(replays(last())).toEqual([]);
    last().receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    expect(replays(last())).toEqual([{ type: 'replay', params: '42' }]);
    const order = last()
      .json()
      .map((m) => m.type);
    expect(order.indexOf('replay')).toBeGreaterThan(order.lastIndexOf('sub'));

    // What the server replays and what comes live may overlap: each seq is handled once.
    last().receive(notice(41));
    last().receive(closed(43));
    last().receive(notice(44));
    last().receive(closed(43));
    last().receive({ type: 'replay_result', code: 1, msg: 'Sent 2', data: { complete: true, count: 2 } });
    expect(closes.mock.calls.map(([m]) => m.seq)).toEqual([42, 43]);
    expect(notices.mock.calls.map(([m]) => m.seq)).toEqual([41, 44]);

    reconnect();
    last().receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    expect(replays(last())).toEqual([{ type: 'replay', params: '44' }]);
  });

  it("never asks with another session's seq, and passes pushes without a seq as before", () => {
    token = 'tok-a';
    const closes = vi.fn();
    client.subscribe('FOREX_CLOSED', closes);
    client.start();
    last().accept();
    last().receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    last().receive(closed(7));
    token = 'tok-b';
    client.relogin();
    last().receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    reconnect();
    last().receive({ type: 'login_result', code: 1, msg: 'Logged in' });
    expect(replays(last())).toEqual([]);

    last().receive(closed(7));
    last().receive(pushSamples.FOREX_CLOSED);
    last().receive(pushSamples.FOREX_CLOSED);
    expect(closes).toHaveBeenCalledTimes(4);
  });
});
