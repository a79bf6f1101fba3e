/**
 * Two real servers on one PostgreSQL and one Redis: the dealer's desk answered by the follower (from
 * the database) and by the leader (from the engine's books) agree, and a risk desk's socket on the
 * follower gets the leader's DESK pushes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, type WsMessage } from '../src/realtime/ws-test-client.ts';
import { type Cluster, api, startCluster } from './cluster-kit.ts';

const ready = Boolean(process.env.TEST_DATABASE_URL && process.env.REDIS_URL);
const DESK = '/api/admin/desk/exposure';

describe.skipIf(!ready)("the dealer's desk in a cluster", () => {
  let cluster: Cluster;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    cluster = await startCluster(2, { STAFF_TOTP_ROLES: 'none', MARKET_ALWAYS_OPEN: '1' });
  }, 180_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await cluster?.close();
  }, 60_000);

  async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("answers the same book on the follower and the leader, and pushes the leader's figures to a desk on the follower", async () => {
    const leaderPort = await until('leader', () => cluster.leaderPort());
    const leader = cluster.servers.find((s) => s.port === leaderPort)!;
    const follower = cluster.servers.find((s) => s.port !== leaderPort)!;
    const signedIn = await api(follower.url, 'POST', '/api/admin/login', {
      email: 'admin@localhost.localdomain',
      password: 'admin-password-1',
    });
    expect(signedIn.code).toBe(1);
    const staff = signedIn.data.token as string;

    const created = await api(follower.url, 'GET', '/api/user/createAccountDemoForU');
    const trader = (await api(follower.url, 'POST', '/api/user/loginForU', { demo_id: created.data.demo_id })).data.token as string;
    const list = await api(follower.url, 'GET', '/v1/api/forex/trade_list');
    const btc = (list.data as { Id: number; Code: string }[]).find((s) => s.Code === 'BTCUSDT')!.Id;
    const placed = await api(follower.url, 'GET', '/v1/api/forex/submit', { type: 1, cont: '0.1', forex_id: btc, multiple: 10 }, trader);
    expect(placed.code).toBe(1);

    const onFollower = await api(follower.url, 'GET', DESK, { demo: 1 }, staff);
    expect(onFollower.data).toMatchObject({
      source: 'database',
      totals: { positions: 1 },
      symbols: [{ code: 'BTC/USDT', long_lots: '0.100000' }],
    });
    const onLeader = await until('the position in the books', async () => {
      const res = await api(leader.url, 'GET', DESK, { demo: 1 }, staff);
      return res.data.totals.positions === 1 && res.data;
    });
    expect(onLeader).toMatchObject({
      source: 'engine',
      symbols: [{ code: 'BTC/USDT', long_lots: '0.100000', long_usd: expect.any(String) }],
    });

    const desk = await TestClient.connect(`${follower.url.replace('http', 'ws')}/v1/ws?lang=en`);
    clients.push(desk);
    expect(await desk.request({ type: 'login', params: staff }, 'login_result')).toMatchObject({ code: 1 });
    expect(await desk.request({ type: 'sub', params: 'DESK' }, 'sub_result')).toMatchObject({ code: 1 });
    const pushed = (await desk.next((m) => typeof m === 'object' && m.type === 'DESK', 5_000)) as WsMessage;
    expect(pushed.demo).toMatchObject({
      source: 'engine',
      totals: { positions: 1 },
      symbols: [{ code: 'BTC/USDT', long_lots: '0.100000' }],
    });
  }, 60_000);
});
