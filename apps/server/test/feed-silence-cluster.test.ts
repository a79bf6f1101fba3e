/**
 * No trading on frozen prices (several servers): a follower that hears neither a tick nor the
 * leader's heartbeat for FEED_SILENCE_MS refuses orders and answers not ready, however young the
 * symbol's own quote age allows; and a jump the leader's filter holds pauses the symbol on every
 * server, not only on the leader.
 */
import { Code } from '@tp/contract/codes';
import { fixed } from '@tp/contract/decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRM_TICKS } from '../src/modules/market/quote-pipeline.ts';
import { type Cluster, type ClusterServer, api, startCluster } from './cluster-kit.ts';
import { freezableRelay } from './freezable-relay.ts';

const ready = Boolean(process.env.TEST_DATABASE_URL && process.env.REDIS_URL);
const SILENCE_MS = 2_000;

describe.skipIf(!ready)('a follower that stops hearing the feed', () => {
  let cluster: Cluster;
  let relay: Awaited<ReturnType<typeof freezableRelay>>;
  let leader: ClusterServer;
  let follower: ClusterServer;
  beforeAll(async () => {
    relay = await freezableRelay(new URL(process.env.REDIS_URL!));
    // The first server leads (the price feed and its heartbeat); the follower's Redis goes through the relay.
    cluster = await startCluster(1, {
      PRICE_SOURCE: 'simulator',
      // The test's own ticks only (one simulated tick per symbol every 1,000 s): a held jump stays held.
      PRICE_TICK_RATE: '0.001',
      MARKET_ALWAYS_OPEN: '1',
      HISTORY_BARS: '10',
      TRADING_TEST_CONTROLS: '1',
      FEED_SILENCE_MS: String(SILENCE_MS),
    });
    leader = cluster.servers[0]!;
    follower = await cluster.start({ REDIS_URL: relay.url });
  }, 180_000);
  afterAll(async () => {
    relay?.thaw();
    await cluster?.close();
    await relay?.close();
  }, 60_000);

  const trader = async (base: string) => {
    const created = await api(base, 'GET', '/api/user/createAccountDemoForU');
    const login = await api(base, 'POST', '/api/user/loginForU', { demo_id: created.data.demo_id });
    expect(login.code).toBe(1);
    return login.data.token as string;
  };
  const btcOf = async (base: string) => {
    const list = await api(base, 'GET', '/v1/api/forex/trade_list');
    const row = (list.data as { Id: number; Code: string; LastPrice: string }[]).find((s) => s.Code === 'BTCUSDT')!;
    return { id: row.Id, last: Number(row.LastPrice) };
  };
  const buy = (base: string, token: string, forexId: number) =>
    api(base, 'GET', '/v1/api/forex/submit', { type: 1, cont: '0.01', forex_id: forexId, multiple: 10 }, token);
  /** A tick through the leader's test control (its feed); code 1 when accepted, not when held as a jump. */
  const tick = async (symbolId: number, bid: number) =>
    (await api(leader.url, 'POST', '/api/test/trading/tick', { symbol_id: symbolId, bid: fixed(bid, 2), ask: fixed(bid + 10, 2) })).code;
  const readyOf = async (server: ClusterServer) => (await fetch(`${server.url}/health/ready`)).status;

  it('refuses orders and answers 503 while silent, and trades again within a second of hearing the feed', async () => {
    const token = await trader(follower.url);
    const btc = await btcOf(follower.url);
    expect(await tick(btc.id, btc.last)).toBe(Code.SUCCESS);
    await expect.poll(async () => (await buy(follower.url, token, btc.id)).code, { timeout: 10_000 }).toBe(Code.SUCCESS);

    relay.freeze();
    const frozenAt = Date.now();
    try {
      // Within the silence bound the quote is young enough to trade (the symbol allows 30 s) …
      await new Promise((r) => setTimeout(r, SILENCE_MS + 500));
      // … past it, the follower refuses, in the trader's language, and a load balancer takes it out.
      const refused = await buy(follower.url, token, btc.id);
      expect(refused.code).toBe(Code.MARKET_CLOSED);
      expect(refused.msg).toMatch(/price/i);
      expect(await readyOf(follower)).toBe(503);
      // The leader runs the feed: it goes on trading.
      expect((await buy(leader.url, await trader(leader.url), btc.id)).code).toBe(Code.SUCCESS);
      expect(await readyOf(leader)).toBe(200);
    } finally {
      relay.thaw();
    }
    const thawedAt = Date.now();
    await expect.poll(async () => (await buy(follower.url, token, btc.id)).code, { timeout: 5_000, interval: 100 }).toBe(Code.SUCCESS);
    const backMs = Date.now() - thawedAt;
    console.log(`follower silent for ${thawedAt - frozenAt} ms; trading again ${backMs} ms after the feed came back`);
    expect(backMs).toBeLessThan(2_000);
    await expect.poll(() => readyOf(follower), { timeout: 5_000 }).toBe(200);
  });

  it("pauses a symbol on the follower while the leader's filter holds a jump, and resumes when it is confirmed", async () => {
    const token = await trader(follower.url);
    const btc = await btcOf(leader.url);
    expect(await tick(btc.id, btc.last)).toBe(Code.SUCCESS);
    await expect.poll(async () => (await buy(follower.url, token, btc.id)).code, { timeout: 5_000 }).toBe(Code.SUCCESS);
    // The jump's first tick is held on the leader: the follower stops trading BTC at its old price.
    const high = Math.round(btc.last * 1.2);
    expect(await tick(btc.id, high)).not.toBe(Code.SUCCESS);
    await expect.poll(async () => (await buy(follower.url, token, btc.id)).code, { timeout: 2_000, interval: 50 }).toBe(Code.MARKET_CLOSED);
    // Still paused a few heartbeats later: the leader keeps saying it holds the jump.
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await buy(follower.url, token, btc.id)).code).toBe(Code.MARKET_CLOSED);
    // Confirmed by the next ticks: the follower trades again, at the new level.
    let code = 0;
    for (let i = 0; i < CONFIRM_TICKS && code !== Code.SUCCESS; i++) code = await tick(btc.id, high);
    expect(code).toBe(Code.SUCCESS);
    let filled: Awaited<ReturnType<typeof buy>> | undefined;
    await expect
      .poll(async () => (filled = await buy(follower.url, token, btc.id)).code, { timeout: 2_000, interval: 50 })
      .toBe(Code.SUCCESS);
    expect(Number(filled!.data.Price)).toBeGreaterThanOrEqual(high);
  });
});
