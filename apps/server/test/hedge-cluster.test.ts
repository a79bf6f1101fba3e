/**
 * A-book hedging in a cluster: two real servers on one PostgreSQL and one Redis, PRICE_SOURCE=fix
 * against a FIX simulator in this process. The FIX session runs on the leader only; a client's order
 * and close sent to the follower are hedged through the leader, filled at the provider's price, and
 * the leader's reconciler leaves the hedge in place.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { FixSimulator } from '../src/modules/market/sources/fix-simulator.ts';
import { type Cluster, api, startCluster } from './cluster-kit.ts';
import { localFixSession } from './trading/server-process.ts';

const ready = Boolean(process.env.TEST_DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!ready)('A-book hedging in a cluster', () => {
  let cluster: Cluster;
  let sim: FixSimulator;
  let quoting: NodeJS.Timeout | undefined;
  let dir = '';
  beforeAll(async () => {
    const session = await localFixSession();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedge-cluster-'));
    const file = path.join(dir, 'fix.json');
    fs.writeFileSync(file, JSON.stringify({ sessions: [session], hedge: { timeoutMs: 2000, orderType: 'limit', reconcileSeconds: 1 } }));
    const quote = () => ({ symbol: 'BTC/USDT', bid: '94995', ask: '95005', time: Date.now() });
    sim = new FixSimulator(session, pino({ level: 'silent' }), [quote()]);
    await sim.start();
    quoting = setInterval(() => sim.push(quote()), 300);
    cluster = await startCluster(2, { STAFF_TOTP_ROLES: 'none', MARKET_ALWAYS_OPEN: '1', PRICE_SOURCE: 'fix', FIX_CONFIG: file });
  }, 180_000);
  afterAll(async () => {
    clearInterval(quoting);
    await cluster?.close();
    sim?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  async function until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T, ms = 15_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("a client on the follower is hedged through the leader's FIX session, filled at the provider's price, and the close is mirrored", async () => {
    const leaderPort = await until('leader', () => cluster.leaderPort());
    const follower = cluster.servers.find((s) => s.port !== leaderPort)!;
    await until('the FIX session', () => sim.loggedOn() === 1);
    const staff = (
      await api(follower.url, 'POST', '/api/admin/login', { email: 'admin@localhost.localdomain', password: 'admin-password-1' })
    ).data.token as string;
    const group = await api(follower.url, 'POST', '/api/admin/groups/save', { name: 'a-book cluster', kind: 'demo', book: 'A' }, staff);
    expect(group.code).toBe(1);
    const created = await api(follower.url, 'GET', '/api/user/createAccountDemoForU');
    const trader = (await api(follower.url, 'POST', '/api/user/loginForU', { demo_id: created.data.demo_id })).data.token as string;
    const moved = await api(
      follower.url,
      'POST',
      '/api/admin/users/set_group',
      { user_id: created.data.id, group_id: group.data.id },
      staff,
    );
    expect(moved.code).toBe(1);
    const list = await api(follower.url, 'GET', '/v1/api/forex/trade_list');
    const btc = (list.data as { Id: number; Code: string }[]).find((s) => s.Code === 'BTCUSDT')!.Id;

    const placed = await until('a live BTC price on the follower', async () => {
      const res = await api(follower.url, 'GET', '/v1/api/forex/submit', { type: 1, cont: '0.1', forex_id: btc, multiple: 10 }, trader);
      return res.code === 1 ? res : null;
    });
    expect(dec(placed.data.Price).eq('95005')).toBe(true);
    expect(sim.ordersReceived).toMatchObject([{ side: '1', quantity: '0.1', ordType: '2', timeInForce: '3' }]);

    const hedges = async () => (await api(follower.url, 'GET', '/api/admin/desk/hedges', {}, staff)).data;
    expect((await hedges()).orders).toMatchObject([{ reason: 'a_open', status: 'filled', client_order_ids: [placed.data.Id] }]);
    // The leader's reconciler (every second) finds the hedge book at the A-book clients' net: nothing more is sent.
    await new Promise((r) => setTimeout(r, 3500));
    expect(sim.ordersReceived.length).toBe(1);
    expect((await hedges()).symbols).toMatchObject([
      { code: 'BTC/USDT', clients_net_lots: '0.1', hedged_lots: '0.1', difference_lots: '0' },
    ]);

    const closed = await api(follower.url, 'GET', '/v1/api/forex/close', { id: placed.data.Id }, trader);
    expect(closed.code).toBe(1);
    expect(dec(closed.data.UpdatePrice).eq('94995')).toBe(true);
    expect(sim.ordersReceived.at(-1)).toMatchObject({ side: '2', quantity: '0.1' });
    expect((await hedges()).positions).toMatchObject([{ session: 'lp1', net_lots: '0' }]);
  });
});
