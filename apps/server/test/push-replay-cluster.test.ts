/**
 * Three real servers on one PostgreSQL and one Redis: a trader's socket on server A sees a push, is
 * cut off, a position closes by take-profit on the leader meanwhile (FOREX_CLOSED and NOTICE), and
 * the client comes back on server B: its replay gets exactly those two, once, in order.
 */
import { fixed } from '@tp/contract/decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRM_TICKS } from '../src/modules/market/quote-pipeline.ts';
import { TestClient, type WsMessage } from '../src/realtime/ws-test-client.ts';
import { type Cluster, api, startCluster } from './cluster-kit.ts';

const ready = Boolean(process.env.TEST_DATABASE_URL && process.env.REDIS_URL);
if (!ready) console.warn('push-replay-cluster.test.ts skipped: set TEST_DATABASE_URL (PostgreSQL) and REDIS_URL (Redis)');

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!ready)('replay of missed pushes on another server', () => {
  let cluster: Cluster;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    cluster = await startCluster(3, { PRICE_SOURCE: 'simulator', MARKET_ALWAYS_OPEN: '1', HISTORY_BARS: '10', TRADING_TEST_CONTROLS: '1' });
  }, 180_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await cluster?.close();
  }, 60_000);

  const listening = async (serverUrl: string, token: string) => {
    const c = await TestClient.connect(`${serverUrl.replace('http', 'ws')}/v1/ws?lang=en`);
    clients.push(c);
    expect(await c.request({ type: 'login', params: token }, 'login_result')).toMatchObject({ code: 1 });
    expect(await c.request({ type: 'sub', params: 'FOREX_CLOSED' }, 'sub_result')).toMatchObject({ code: 1 });
    return c;
  };
  const isEvent = (m: WsMessage | string): m is WsMessage => typeof m === 'object' && (m.type === 'FOREX_CLOSED' || m.type === 'NOTICE');

  it('replays on server B what was pushed while the client, last on server A, was away', async () => {
    const leaderPort = await until('a leader', () => cluster.leaderPort(), 10_000);
    const [a, b] = cluster.servers.filter((s) => s.port !== leaderPort).map((s) => s.url) as [string, string];
    const created = await api(b, 'GET', '/api/user/createAccountDemoForU');
    const login = await api(b, 'POST', '/api/user/loginForU', { demo_id: created.data.demo_id });
    expect(login.code).toBe(1);
    const token = login.data.token as string;
    const list = await api(b, 'GET', '/v1/api/forex/trade_list');
    const btc = (list.data as { Id: number; Code: string; LastPrice: string }[]).find((s) => s.Code === 'BTCUSDT')!;

    const first = await listening(a, token);
    const opened = await api(b, 'GET', '/v1/api/forex/submit', { type: 1, cont: '0.01', forex_id: btc.Id, multiple: 10 }, token);
    expect(opened.code, opened.msg).toBe(1);
    expect((await api(b, 'GET', '/v1/api/forex/close', { id: opened.data.Id }, token)).code).toBe(1);
    const seen = (await first.next(
      (m) => typeof m === 'object' && m.type === 'FOREX_CLOSED' && m.id.includes(opened.data.Id),
      5_000,
    )) as WsMessage;
    expect(seen.seq).toEqual(expect.any(Number));
    first.close();

    // Away: a take-profit fires on the leader (FOREX_CLOSED, then NOTICE).
    const last = Number(btc.LastPrice);
    const withTp = await api(
      b,
      'GET',
      '/v1/api/forex/submit',
      { type: 1, cont: '0.01', forex_id: btc.Id, multiple: 10, target_profit_price: fixed(last * 1.05, 2) },
      token,
    );
    expect(withTp.code, withTp.msg).toBe(1);
    const id = withTp.data.Id as number;
    await new Promise((r) => setTimeout(r, 300));
    let code = 0;
    for (let i = 0; i <= CONFIRM_TICKS && code !== 1; i++)
      code = (
        await api(a, 'POST', '/api/test/trading/tick', { symbol_id: btc.Id, bid: fixed(last * 1.06, 2), ask: fixed(last * 1.06 + 10, 2) })
      ).code;
    expect(code).toBe(1);
    await until(
      'the take-profit',
      async () => (await cluster.query<{ status: number }>('select status from orders where id = $1', [id]))[0]!.status === 3,
      5_000,
    );
    await new Promise((r) => setTimeout(r, 300));

    const back = await listening(b, token);
    const from = back.messages.length;
    const result = await back.request({ type: 'replay', params: String(seen.seq) }, 'replay_result');
    const events = back.messages.slice(from, back.messages.indexOf(result, from)).filter(isEvent);
    expect(events).toEqual([
      { type: 'FOREX_CLOSED', id: [id], seq: seen.seq + 1 },
      expect.objectContaining({ type: 'NOTICE', kind: 'take_profit', order_id: id, seq: seen.seq + 2 }),
    ]);
    expect(result).toMatchObject({ code: 1, data: { complete: true, count: 2 } });
    await new Promise((r) => setTimeout(r, 200));
    expect(back.messages.filter(isEvent)).toHaveLength(2);
  }, 60_000);
});
