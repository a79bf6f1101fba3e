import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@tp/contract/codes';
import { ConfigError, loadConfig } from '../src/config.ts';
import { latestMigration } from '../src/platform/db/client.ts';
import { freePort } from './trading/server-process.ts';
import { TestClient } from '../src/realtime/ws-test-client.ts';
import { demoTrader, submit, symbolId, tick, tradingApp, api } from './trading/test-kit.ts';
import { createTestApp, dbTargets, type TestApp } from './test-app.ts';

const TOKEN = 'metrics-token-0123456789';
const BTC = 'BTCUSDT';

/** One sample of the Prometheus text: name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!]));
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

/** The value of the one series of `name` whose labels include `labels` (undefined when absent). */
function valueOf(all: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} series`);
  return found[0]?.value;
}

const sumOf = (all: Sample[], name: string) => all.filter((s) => s.name === name).reduce((n, s) => n + s.value, 0);

async function scrape(t: TestApp): Promise<Sample[]> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return samples(res.body);
}

// The checks are shown with the metrics token (or, without one configured, outside production).
const ready = async (t: TestApp) => {
  const res = await t.app.inject({ method: 'GET', url: '/health/ready', headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: res.statusCode, body: res.json() };
};

describe.each(dbTargets)('a running server on %s: health and a metrics port of its own', (target) => {
  let t: TestApp;
  let metricsPort: number;
  beforeAll(async () => {
    metricsPort = await freePort();
    t = await createTestApp(target, {
      MARKET_ALWAYS_OPEN: '1',
      HISTORY_BARS: '0',
      PRICE_TICK_RATE: '20',
      METRICS_PORT: String(metricsPort),
    });
    await t.startBackground();
  });
  afterAll(async () => t?.close());

  it('answers live, and ready with the database, the migrations, the simulated feed, the bus and its role', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });

    // Ready once some symbol ticked; wait for BTC's first simulated tick as well (symbols start ticking one by one).
    await expect
      .poll(
        async () => {
          const r = await ready(t);
          return (
            r.status === 200 &&
            r.body.checks.feed.symbols.some((s: { code: string; state: string }) => s.code === BTC && s.state === 'live')
          );
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const { body } = await ready(t);
    expect(body).toMatchObject({
      status: 'ready',
      role: 'leader',
      checks: {
        database: { ok: true, kind: target },
        migrations: { ok: true, expected: latestMigration().tag },
        feed: { ok: true, thresholdMs: 10_000 },
        bus: { ok: true, kind: 'memory' },
      },
    });
    expect(body.checks.migrations.appliedAt).toBe(new Date(latestMigration().when).toISOString());
    expect(body.checks.feed.newestTickAgeMs).toBeLessThan(10_000);
    expect(body.checks.feed.symbols).toContainEqual(expect.objectContaining({ code: BTC, state: 'live', suspectTicks: 0 }));
  });

  it('serves /metrics on METRICS_PORT only, with the leader, the event-loop delay and the socket clients', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const client = await TestClient.connect(`ws://127.0.0.1:${port}/v1/ws`);
    expect(await client.request({ type: 'sub', params: 'DAY_MARKET' }, 'sub_result')).toMatchObject({ code: 1 });
    await client.next((m) => typeof m === 'object' && m.type === 'DAY_MARKET');
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    client.close();
    expect(res.status).toBe(200);
    const all = samples(await res.text());
    expect(valueOf(all, 'tp_ws_clients')).toBe(1);
    expect(valueOf(all, 'tp_ws_messages_sent_total')).toBeGreaterThan(0);
    expect(valueOf(all, 'tp_leader')).toBe(1);
    expect(valueOf(all, 'tp_leader_changes_total')).toBe(1);
    expect(valueOf(all, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(all, 'tp_feed_tick_age_seconds', { symbol: BTC })).toBeLessThan(10);
    expect(valueOf(all, 'tp_feed_symbols', { state: 'live' })).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
  });
});

describe.each(dbTargets)('health and metrics around a trade on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target, { METRICS_TOKEN: TOKEN, FEED_STALE_MS: '300', RATE_LIMIT_MAX: '40' });
  });
  afterAll(async () => {
    // The last test closed the database itself.
    await t?.close().catch(() => undefined);
  });

  it('refuses /metrics without the token or with another one', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.body).not.toContain('tp_');
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-token-wrong-12345' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('is not ready while the feed is stale, and ready again after a tick', async () => {
    await new Promise((r) => setTimeout(r, 400));
    const stale = await ready(t);
    expect(stale.status).toBe(503);
    expect(stale.body).toMatchObject({ status: 'not_ready', checks: { database: { ok: true }, feed: { ok: false, thresholdMs: 300 } } });
    const btc = stale.body.checks.feed.symbols.find((s: { code: string }) => s.code === BTC);
    expect(btc.lastTickAgeMs).toBeGreaterThanOrEqual(300);

    await tick(t, BTC, '94990', '95010');
    const fresh = await ready(t);
    expect(fresh.status).toBe(200);
    expect(fresh.body.checks.feed.symbols).toContainEqual(expect.objectContaining({ code: BTC, state: 'live' }));
    // No background started here: this server has not been elected.
    expect(fresh.body.role).toBe('follower');
  });

  it('counts the requests, the orders, the closes by kind, a stop-out, the engine latency and the ledger postings of trades', async () => {
    const before = await scrape(t);
    const trader = await demoTrader(t);
    const btc = symbolId(t, BTC);
    await tick(t, BTC, '94990', '95010');
    const byUser = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10 });
    expect(byUser.code).toBe(1);
    expect((await api(t, trader, '/v1/api/forex/close', { id: byUser.data.Id })).code).toBe(1);
    const byEngine = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, target_profit_price: '95100' });
    expect(byEngine.code).toBe(1);
    await tick(t, BTC, '95200', '95220');
    expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 3 })).data.total).toBe(2);
    const refused = await submit(t, trader, { type: 1, cont: '0', forex_id: btc, multiple: 10 });
    expect(refused.code).not.toBe(1);
    // 2 lots at 1:2 (margin 95,010): at a bid of 60,000 the risk rate falls below the 50% stop-out level.
    const risky = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    expect((await submit(t, risky, { type: 1, cont: '2', forex_id: btc, multiple: 2 })).code).toBe(1);
    await tick(t, BTC, '60000', '60020');
    expect((await api(t, risky, '/v1/api/forex/my_deal', { status: 3 })).data.data[0]).toMatchObject({ ClosedType: 2 });

    const all = await scrape(t);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      (valueOf(all, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
    const submitRoute = { method: 'GET', route: '/v1/api/forex/submit', status: '200' };
    expect(delta('tp_http_requests_total', { ...submitRoute, code: '1' })).toBe(3);
    expect(delta('tp_http_requests_total', { ...submitRoute, code: String(refused.code) })).toBe(1);
    expect(delta('tp_http_request_duration_seconds_count', { method: 'GET', route: '/v1/api/forex/submit' })).toBe(4);
    // The route pattern, never the raw URL with its query string.
    expect(all.some((s) => s.name === 'tp_http_requests_total' && s.labels.route!.includes('?'))).toBe(false);
    expect(delta('tp_orders_opened_total', { kind: 'market' })).toBe(3);
    expect(delta('tp_orders_closed_total', { closed_type: 'user' })).toBe(1);
    expect(delta('tp_orders_closed_total', { closed_type: 'take_profit' })).toBe(1);
    expect(delta('tp_orders_closed_total', { closed_type: 'stop_out' })).toBe(1);
    expect(delta('tp_stop_outs_total')).toBe(1);
    expect(delta('tp_engine_trigger_latency_seconds_count', { kind: 'close' })).toBe(1);
    expect(delta('tp_engine_trigger_latency_seconds_count', { kind: 'risk' })).toBeGreaterThanOrEqual(1);

    const rows = await t.database.db.execute('select kind, count(*)::int as n from ledger_transactions group by kind');
    const written = ((rows as { rows?: { kind: string; n: number }[] }).rows ?? (rows as unknown as { kind: string; n: number }[])).map(
      (r) => [r.kind, r.n],
    );
    expect(written.length).toBeGreaterThan(1);
    for (const [kind, n] of written) expect(valueOf(all, 'tp_ledger_postings_total', { kind: kind as string })).toBe(n);

    expect(valueOf(all, 'tp_ws_clients')).toBe(0);
    expect(valueOf(all, 'tp_ws_messages_sent_total')).toBe(0);
    expect(valueOf(all, 'tp_ws_clients_dropped_total')).toBe(0);
    expect(delta('tp_db_query_duration_seconds_count')).toBeGreaterThan(5);
    expect(valueOf(all, 'tp_db_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(all, 'tp_db_queries_in_flight')).toBeGreaterThanOrEqual(0);
    expect(valueOf(all, 'tp_leader')).toBe(0);
    expect(valueOf(all, 'tp_leader_changes_total')).toBe(0);
    expect(valueOf(all, 'tp_feed_tick_age_seconds', { symbol: BTC })).toBeGreaterThanOrEqual(0);
    const btcFeed = t.ctx.services.market.feedHealth().find((s) => s.code === BTC)!;
    expect(valueOf(all, 'tp_feed_suspect_ticks', { symbol: BTC })).toBe(btcFeed.suspectTicks);
    expect(sumOf(all, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('never rate-limits the health and metrics calls, while the API is limited', async () => {
    let limited = 0;
    for (let i = 0; i < 45; i++) if ((await api(t, null, '/v1/api/forex/trade_list')).code === Code.RATE_LIMITED) limited++;
    expect(limited).toBeGreaterThan(0);
    for (let i = 0; i < 60; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
      expect([200, 503]).toContain((await ready(t)).status);
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(200);
    }
  });

  it('is not ready once the database is gone', async () => {
    await tick(t, BTC, '94990', '95010');
    await t.database.close();
    // Past the one-second cache of the database check.
    await new Promise((r) => setTimeout(r, 1_100));
    await tick(t, BTC, '94990', '95010');
    const gone = await ready(t);
    expect(gone.status).toBe(503);
    expect(gone.body).toMatchObject({
      status: 'not_ready',
      checks: { database: { ok: false, kind: target }, migrations: { ok: false }, feed: { ok: true } },
    });
  });
});

describe('metrics configuration', () => {
  it('refuses a short token and a metrics port equal to the server port, naming the variable', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ PORT: '9000', METRICS_PORT: '9000' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(loadConfig({ METRICS_PORT: '9464' })).toMatchObject({ METRICS_PORT: 9464, METRICS_HOST: '127.0.0.1' });
  });

  it('keeps /metrics off in production without METRICS_TOKEN or METRICS_PORT, and the probes on', async () => {
    const t = await createTestApp('pglite', { NODE_ENV: 'production' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('tp_');
      expect((await t.app.inject({ method: 'GET', url: '/health/live' })).json()).toEqual({ status: 'ok' });
    } finally {
      await t.close();
    }
  });
});
