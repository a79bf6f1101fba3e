/**
 * The fault suite (`npm run test:faults`): three servers on a PostgreSQL cluster (port 5439)
 * and a Redis (port 6389) of the suite's own, both removed at the end. Traders work through every
 * server (positions with take-profit and stop-loss, pending orders, socket clients, a stream of
 * orders opened and closed); faults are injected one at a time, with recovery between them. After
 * each, the suite checks and records: no server died (but the one killed on purpose), the ledger
 * audit is clean, no acknowledged order is lost or doubled and no position closed twice, every
 * take-profit, stop-loss and pending order crossed after recovery fires within 2 s of the first
 * crossing tick, every socket client's positions equal the database's, and the API (polled every
 * 100 ms on every server) was unavailable no longer than the fault plus 2 s.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixed } from '@tp/contract/decimal';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/modules/ledger/ledger-service.ts';
import { openDatabase } from '../../src/platform/db/client.ts';
import { TestClient } from '../../src/realtime/ws-test-client.ts';
import { type Cluster, type ClusterServer, api, startCluster } from '../cluster-kit.ts';

const PG_VERSION = '15';
const PG_CLUSTER = 'faults';
const PG_PORT = 5439;
const REDIS_PORT = 6389;
const BASE_URL = `postgres://postgres@127.0.0.1:${PG_PORT}/postgres`;
const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}`;
/** A triggered order fires within this long of the first tick crossing its level. */
const FIRE_BOUND_MS = 2_000;
/** The API is unavailable no longer than the fault plus this. */
const OUTAGE_SLACK_MS = 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (s: ClusterServer) => s.child.exitCode === null && s.child.signalCode === null;

type Answer = { code: number; msg: string; data: any };

/** The API as an existing client calls it, with a deadline: null when no answer came (refused, timed out, not JSON). */
const call = (
  base: string,
  method: 'GET' | 'POST',
  url: string,
  params: Record<string, unknown> = {},
  token?: string,
  timeoutMs = 5_000,
): Promise<Answer | null> => api(base, method, url, params, token, timeoutMs).catch(() => null);

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'pipe', timeout: 60_000 }).toString();
const pgctl = (...args: string[]) => sh('pg_ctlcluster', [PG_VERSION, PG_CLUSTER, ...args]);

function dropPgCluster() {
  try {
    sh('pg_dropcluster', ['--stop', PG_VERSION, PG_CLUSTER]);
  } catch {
    // there was none
  }
}

function createPgCluster() {
  dropPgCluster();
  sh('pg_createcluster', [PG_VERSION, PG_CLUSTER, '-p', String(PG_PORT), '-o', 'max_connections=200', '--', '--auth=trust']);
  pgctl('start');
}

/** The suite's Redis, a child process (no persistence: a restart loses everything, as a fresh Redis). */
class PrivateRedis {
  child: ChildProcess | null = null;

  async start() {
    this.child = spawn(
      'redis-server',
      ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await until('Redis to answer', () => this.ping(), 10_000);
  }

  async ping(): Promise<boolean> {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      return (await redis.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      redis.disconnect();
    }
  }

  async command(...args: string[]): Promise<unknown> {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    try {
      return await redis.call(args[0]!, ...args.slice(1));
    } finally {
      redis.disconnect();
    }
  }

  signal(sig: NodeJS.Signals) {
    process.kill(this.child!.pid!, sig);
  }

  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

interface Trader {
  token: string;
  userId: number;
  socket: TestClient | null;
  socketServer: ClusterServer | null;
  heartbeat: NodeJS.Timeout | null;
}

interface Row {
  fault: string;
  died: number;
  audit: string[];
  lost: number;
  doubled: number;
  fired: number;
  fireMaxMs: number;
  missed: number;
  wsOk: number;
  wsTotal: number;
  outageMs: number;
  boundMs: number;
  recoveryMs: number;
}

/** Polls a cheap authenticated call on one server every 100 ms; keeps the longest time it got no good answer. */
class Poller {
  longestMs = 0;
  private failingSince: number | null = null;
  private running = true;
  private done: Promise<void>;

  constructor(
    readonly server: ClusterServer,
    token: string,
  ) {
    this.done = (async () => {
      while (this.running) {
        const sent = Date.now();
        const res = await call(server.url, 'GET', '/v1/api/main/account/forexDetail', {}, token, 1_000);
        if (res?.code === 1) {
          if (this.failingSince !== null) this.longestMs = Math.max(this.longestMs, sent - this.failingSince);
          this.failingSince = null;
        } else if (this.failingSince === null) this.failingSince = sent;
        await sleep(Math.max(0, 100 - (Date.now() - sent)));
      }
    })();
  }

  /** Stops polling; a server still failing counts until now. */
  async stop(): Promise<number> {
    this.running = false;
    await this.done;
    if (this.failingSince !== null) this.longestMs = Math.max(this.longestMs, Date.now() - this.failingSince);
    return this.longestMs;
  }

  /** Stops polling a server killed on purpose (its outage is not the API's). */
  async abandon() {
    this.running = false;
    await this.done;
    this.failingSince = null;
    this.longestMs = 0;
  }
}

describe('faults on a three-server cluster (its own PostgreSQL and Redis)', () => {
  let cluster: Cluster;
  const redis = new PrivateRedis();
  const traders: Trader[] = [];
  const rows: Row[] = [];
  let btcId = 0;
  /** The price the background ticker holds BTC at; the triggers are set around it. */
  let base = 0;
  let tickerOn = false;
  let tickerDone: Promise<void> = Promise.resolve();
  let leaderUrl = '';
  /** Every order a submit was answered code 1 for: id and the client order id it was sent with. */
  const acked: { id: number; clientId: string; userId: number }[] = [];
  /** Every position a close was answered code 1 for. */
  const closed: number[] = [];
  const killed = new Set<ClusterServer>();
  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-faults-'));

  const liveServers = () => cluster.servers.filter((s) => alive(s) && !killed.has(s));

  beforeAll(async () => {
    createPgCluster();
    await redis.start();
    process.env.TEST_DATABASE_URL = BASE_URL;
    process.env.REDIS_URL = REDIS_URL;
    cluster = await startCluster(3, {
      PRICE_SOURCE: 'simulator',
      // The simulator all but silent: BTC moves only by the suite's ticks, so no level is crossed by chance.
      PRICE_TICK_RATE: '0.01',
      MARKET_ALWAYS_OPEN: '1',
      HISTORY_BARS: '10',
      TRADING_TEST_CONTROLS: '1',
      DATABASE_POOL_SIZE: '10',
    });
    const list = await call(cluster.servers[0]!.url, 'GET', '/v1/api/forex/trade_list');
    const btc = (list!.data as { Id: number; Code: string; LastPrice: string }[]).find((s) => s.Code === 'BTCUSDT')!;
    btcId = btc.Id;
    base = Math.round(Number(btc.LastPrice));
    await findLeader();
    startTicker();
    await sleep(1_000);
    for (const [i, server] of cluster.servers.entries()) {
      const created = await call(server.url, 'GET', '/api/user/createAccountDemoForU');
      const login = await call(server.url, 'POST', '/api/user/loginForU', { demo_id: created!.data.demo_id });
      expect(login?.code).toBe(1);
      const trader: Trader = { token: login!.data.token, userId: login!.data.user.id, socket: null, socketServer: null, heartbeat: null };
      traders.push(trader);
      await connectSocket(trader, cluster.servers[i]!);
    }
  }, 300_000);

  afterAll(async () => {
    tickerOn = false;
    await tickerDone;
    for (const t of traders) {
      if (t.heartbeat) clearInterval(t.heartbeat);
      t.socket?.close();
    }
    for (const s of cluster?.servers ?? []) if (alive(s)) s.child.kill('SIGCONT');
    await redis.stop();
    await cluster?.close().catch((err: unknown) => console.error('closing the cluster:', err));
    dropPgCluster();
    const table = report();
    const file = path.join(reportDir, 'faults-report.md');
    fs.writeFileSync(file, table);
    console.log(`\n${table}\nfault report written to ${file}`);
  }, 120_000);

  function report(): string {
    const lines = [
      '| fault | servers died | audit | lost/doubled | TP/SL/pending fire latency max | ws views ok | API unavailable s vs bound |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const r of rows)
      lines.push(
        `| ${r.fault} | ${r.died} | ${r.audit.length ? `${r.audit.length} problems` : 'clean'} | ${r.lost}/${r.doubled} | ` +
          `${r.fireMaxMs} ms (${r.fired} fired${r.missed ? `, ${r.missed} missed` : ''}) | ${r.wsOk}/${r.wsTotal} | ` +
          `${(r.outageMs / 1000).toFixed(1)} / ${(r.boundMs / 1000).toFixed(1)} |`,
      );
    return `${lines.join('\n')}\n`;
  }

  async function findLeader(): Promise<ClusterServer> {
    const port = await until('one leader', () => cluster.leaderPort(), 30_000);
    const leader = liveServers().find((s) => s.port === port);
    if (!leader) throw new Error(`the leader (port ${port}) is not a live server`);
    leaderUrl = leader.url;
    return leader;
  }

  /** Holds BTC at `base` with a tick every 300 ms, to the leader first (the bus may be down), else to any server. */
  function startTicker() {
    tickerOn = true;
    tickerDone = (async () => {
      while (tickerOn) {
        const urls = [leaderUrl, ...liveServers().map((s) => s.url)].filter(Boolean);
        for (const url of urls) {
          const res = await call(
            url,
            'POST',
            '/api/test/trading/tick',
            { symbol_id: btcId, bid: fixed(base, 2), ask: fixed(base + 10, 2) },
            undefined,
            1_000,
          );
          if (res?.code === 1) break;
        }
        await sleep(300);
      }
    })();
  }

  async function stopTicker() {
    tickerOn = false;
    await tickerDone;
  }

  async function connectSocket(trader: Trader, server: ClusterServer) {
    trader.socket?.close();
    if (trader.heartbeat) clearInterval(trader.heartbeat);
    const socket = await TestClient.connect(`${server.url.replace('http', 'ws')}/v1/ws`);
    // The heartbeat every client sends (a socket silent for a minute is closed by the server).
    trader.heartbeat = setInterval(() => {
      if (socket.ws.readyState === socket.ws.OPEN) socket.send('ping');
    }, 5_000);
    expect((await socket.request({ type: 'login', params: trader.token }, 'login_result')).code).toBe(1);
    expect((await socket.request({ type: 'sub', params: 'FOREX_TRADE' }, 'sub_result')).code).toBe(1);
    trader.socket = socket;
    trader.socketServer = server;
  }

  /** Market orders opened and closed in a loop by every trader, through the servers in turn (each submit carries a client order id). */
  /**
   * Market orders opened and closed in a loop by every trader, through the servers in turn (each submit
   * carries a client order id); every fourth turn also a position with a take-profit and a pending buy
   * limit that stay, added to `triggers`: orders placed during the fault must be in the leader's books too.
   */
  function startChurn(triggers: Triggers) {
    let on = true;
    const loops = traders.map(async (trader, t) => {
      let turn = t;
      /** Submits through `url` with a client order id, once more with the same id when no answer came; the id acknowledged, or null. */
      const submit = async (url: string, params: Record<string, unknown>): Promise<number | null> => {
        const clientId = `f-${randomBytes(6).toString('hex')}`;
        for (let attempt = 0; attempt < 2 && on; attempt++) {
          const res = await call(
            url,
            'GET',
            '/v1/api/forex/submit',
            { type: 1, cont: '0.01', forex_id: btcId, multiple: 10, client_order_id: clientId, ...params },
            trader.token,
          );
          if (res?.code === 1) {
            acked.push({ id: res.data.Id, clientId, userId: trader.userId });
            return res.data.Id as number;
          }
          await sleep(300);
        }
        return null;
      };
      while (on) {
        const servers = liveServers();
        const at = servers[turn++ % servers.length]!;
        const id = await submit(at.url, {});
        if (id !== null) {
          const other = servers[turn % servers.length]!;
          const res = await call(other.url, 'GET', '/v1/api/forex/close', { id }, trader.token);
          if (res?.code === 1) closed.push(id);
        }
        if (turn % 4 === 0) {
          const tp = await submit(at.url, { target_profit_price: fixed(base * 1.03, 2), stop_loss_price: fixed(base * 0.85, 2) });
          if (tp !== null) triggers.tp.push(tp);
          const pending = await submit(at.url, { status: 0, target_price: fixed(base * 0.97, 2) });
          if (pending !== null) triggers.pending.push(pending);
        }
        await sleep(200);
      }
    });
    return async () => {
      on = false;
      await Promise.all(loops);
    };
  }

  interface Triggers {
    tp: number[];
    sl: number[];
    pending: number[];
  }

  /** Per trader, through its own server: a position with a take-profit, one with a stop-loss, a pending buy limit. */
  async function placeTriggers(): Promise<Triggers> {
    const set: Triggers = { tp: [], sl: [], pending: [] };
    const servers = liveServers();
    for (const [i, trader] of traders.entries()) {
      const url = servers[i % servers.length]!.url;
      const submit = async (params: Record<string, unknown>) => {
        const res = await call(
          url,
          'GET',
          '/v1/api/forex/submit',
          { type: 1, cont: '0.01', forex_id: btcId, multiple: 10, ...params },
          trader.token,
        );
        expect(res?.code, res?.msg).toBe(1);
        return res!.data.Id as number;
      };
      set.tp.push(await submit({ target_profit_price: fixed(base * 1.03, 2), stop_loss_price: fixed(base * 0.85, 2) }));
      set.sl.push(await submit({ target_profit_price: fixed(base * 1.2, 2), stop_loss_price: fixed(base * 0.97, 2) }));
      set.pending.push(await submit({ status: 0, target_price: fixed(base * 0.97, 2) }));
    }
    return set;
  }

  /** Sends a tick through the leader until it is accepted; the time the first attempt was sent. */
  async function crossingTick(price: number): Promise<number> {
    const sentAt = Date.now();
    await until(
      `the tick at ${price}`,
      async () =>
        (await call(leaderUrl, 'POST', '/api/test/trading/tick', { symbol_id: btcId, bid: fixed(price, 2), ask: fixed(price + 10, 2) }))
          ?.code === 1,
      5_000,
      50,
    );
    return sentAt;
  }

  /** Waits (up to 5 s) for each order to reach its status; the latency of each from `since`, or null when it did not. */
  async function firesOf(ids: number[], status: number, since: number): Promise<(number | null)[]> {
    const seen = new Map<number, number>();
    const deadline = since + 5_000;
    while (seen.size < ids.length && Date.now() < deadline) {
      const now = Date.now();
      const rows = await cluster
        .query<{ id: number; status: number }>('select id::int as id, status from orders where id = any($1)', [ids])
        .catch(() => []);
      for (const r of rows) if (r.status === status && !seen.has(r.id)) seen.set(r.id, now - since);
      await sleep(25);
    }
    return ids.map((id) => seen.get(id) ?? null);
  }

  /** Crosses every trigger set before the fault: up through the take-profits, then down through the stop-losses and pending limits. */
  async function crossTriggers(set: Triggers) {
    await stopTicker();
    try {
      const up = await crossingTick(base * 1.04);
      const tp = await firesOf(set.tp, 3, up);
      const down = await crossingTick(base * 0.96);
      const [sl, pending] = await Promise.all([firesOf(set.sl, 3, down), firesOf(set.pending, 1, down)]);
      const all = [...tp, ...sl, ...pending];
      const fired = all.filter((v): v is number => v !== null);
      return { fired: fired.length, missed: all.length - fired.length, maxMs: fired.length ? Math.max(...fired) : 0 };
    } finally {
      startTicker();
    }
  }

  /** Each trader's socket (reconnected and logged in again if it closed) and a fresh one on another server show the open positions the database holds. */
  async function socketViews(): Promise<{ ok: number; total: number; problems: string[] }> {
    const problems: string[] = [];
    let ok = 0;
    let total = 0;
    const servers = liveServers();
    for (const [i, trader] of traders.entries()) {
      if (!trader.socket || trader.socket.closed || !trader.socketServer || !alive(trader.socketServer) || killed.has(trader.socketServer))
        await connectSocket(trader, servers[i % servers.length]!);
      const fresh = await TestClient.connect(`${servers[(i + 1) % servers.length]!.url.replace('http', 'ws')}/v1/ws`);
      try {
        expect((await fresh.request({ type: 'login', params: trader.token }, 'login_result')).code).toBe(1);
        expect((await fresh.request({ type: 'sub', params: 'FOREX_TRADE' }, 'sub_result')).code).toBe(1);
        for (const [kind, socket] of [
          ['kept', trader.socket!],
          ['fresh', fresh],
        ] as const) {
          total++;
          const from = socket.messages.length;
          let last = 'no FOREX_TRADE';
          try {
            await until(
              'a FOREX_TRADE equal to the database',
              async () => {
                const open = (
                  await cluster.query<{ id: number }>('select id::int as id from orders where user_id = $1 and status = 1 order by id', [
                    trader.userId,
                  ])
                ).map((r) => r.id);
                const pushes = socket.ofType('FOREX_TRADE', from);
                const latest = pushes[pushes.length - 1];
                if (!latest) return false;
                const shown = (latest.TransOrder as { Id: number }[]).map((o) => o.Id).sort((a, b) => a - b);
                last = `socket ${JSON.stringify(shown)} database ${JSON.stringify(open)}`;
                return JSON.stringify(shown) === JSON.stringify(open);
              },
              6_000,
              200,
            );
            ok++;
          } catch {
            problems.push(`trader ${trader.userId}, ${kind} socket${socket.closed ? ` (closed ${socket.closed.code})` : ''}: ${last}`);
          }
        }
      } finally {
        fresh.close();
      }
    }
    return { ok, total, problems };
  }

  /** Acknowledged orders: each exists once, under its client order id; each acknowledged close closed it once; nothing closed or filled twice. */
  async function lostOrDoubled(): Promise<{ lost: number; doubled: number; problems: string[] }> {
    const problems: string[] = [];
    let lost = 0;
    let doubled = 0;
    const byClient = new Map<string, Set<number>>();
    for (const a of acked) byClient.set(`${a.userId}:${a.clientId}`, (byClient.get(`${a.userId}:${a.clientId}`) ?? new Set()).add(a.id));
    const rows = await cluster.query<{ id: number; user_id: number; client_order_id: string | null }>(
      'select id::int as id, user_id::int as user_id, client_order_id from orders where id = any($1) or client_order_id = any($2)',
      [acked.map((a) => a.id), acked.map((a) => a.clientId)],
    );
    for (const [key, ids] of byClient) {
      const [userId, clientId] = key.split(':') as [string, string];
      const stored = rows.filter((r) => String(r.user_id) === userId && r.client_order_id === clientId);
      if (ids.size > 1 || stored.length > 1) {
        doubled++;
        problems.push(`client order ${clientId}: answered ${[...ids].join(',')}, stored ${stored.map((r) => r.id).join(',')}`);
      }
      for (const id of ids)
        if (!stored.some((r) => r.id === id)) {
          lost++;
          problems.push(`order ${id} (client order ${clientId}) was acknowledged but is not stored`);
        }
    }
    const closes = await cluster.query<{ ref_id: string; n: number }>(
      `select ref_id, count(*)::int as n from ledger_transactions where ref_type = 'order' and kind = 'order_close' and ref_id = any($1) group by ref_id`,
      [closed.map(String)],
    );
    for (const id of closed) {
      const n = closes.find((c) => c.ref_id === String(id))?.n ?? 0;
      if (n === 0) {
        lost++;
        problems.push(`close of order ${id} was acknowledged but no close is booked`);
      }
    }
    const twice = await cluster.query<{ ref_id: string; kind: string }>(
      `select ref_id, kind from ledger_transactions where ref_type = 'order' and kind in ('order_close', 'order_fill') group by ref_id, kind having count(*) > 1`,
    );
    for (const t of twice) {
      doubled++;
      problems.push(`order ${t.ref_id}: ${t.kind} booked more than once`);
    }
    return { lost, doubled, problems };
  }

  async function audit(): Promise<string[]> {
    const database = await openDatabase({ url: cluster.databaseUrl, poolSize: 2 });
    try {
      return (await auditLedger(database.db)).problems;
    } finally {
      await database.close();
    }
  }

  /** Every live server ready, one leader whose engine runs, BTC quoted live on every server. */
  async function recovered() {
    await until(
      'every server ready with one leader',
      async () => {
        const servers = liveServers();
        if (servers.length !== 3) return false;
        const roles: string[] = [];
        for (const s of servers) {
          const res = await fetch(`${s.url}/health/ready`, { signal: AbortSignal.timeout(1_000) }).catch(() => null);
          if (res?.status !== 200) return false;
          roles.push(((await res.json()) as { role: string }).role);
        }
        if (roles.filter((r) => r === 'leader').length !== 1) return false;
        const leader = await findLeader();
        if (servers[roles.indexOf('leader')] !== leader) return false;
        return (await call(leader.url, 'GET', '/api/test/trading/idle', {}, undefined, 2_000))?.data?.running === true;
      },
      60_000,
      200,
    );
    await until(
      'BTC tradable on every server',
      async () => {
        for (const s of liveServers()) {
          const list = await call(s.url, 'GET', '/v1/api/forex/trade_list', {}, undefined, 2_000);
          const btc = (list?.data as { Id: number; MarketStatus: number }[] | undefined)?.find((r) => r.Id === btcId);
          if (btc?.MarketStatus !== 1) return false;
        }
        return true;
      },
      30_000,
      200,
    );
  }

  interface Injected {
    /** How long the fault lasted (the API may be unavailable this long plus 2 s). */
    durationMs: number;
    /** A server killed on purpose (restarted by the suite). */
    killed?: ClusterServer;
  }

  /**
   * One fault: triggers placed, traders and pollers running, the fault injected and lifted, recovery
   * awaited; then every check recorded in the table and asserted.
   */
  async function runFault(fault: string, inject: (pollers: Poller[]) => Promise<Injected>) {
    await recovered();
    const before = liveServers();
    // The positions left from the fault before are closed (their margin free again), through the servers in turn.
    for (const [i, trader] of traders.entries()) {
      const open = await cluster.query<{ id: number }>('select id::int as id from orders where user_id = $1 and status = 1', [
        trader.userId,
      ]);
      for (const [j, { id }] of open.entries()) {
        const res = await call(before[(i + j) % before.length]!.url, 'GET', '/v1/api/forex/close', { id }, trader.token);
        expect(res?.code, res?.msg).toBe(1);
        closed.push(id);
      }
    }
    const triggers = await placeTriggers();
    // The leader's books learn of them (bus or change log) before the fault.
    await sleep(700);
    const pollers = before.map((s, i) => new Poller(s, traders[i % traders.length]!.token));
    const stopChurn = startChurn(triggers);
    await sleep(1_000);
    const injected = await inject(pollers);
    const liftedAt = Date.now();
    await recovered();
    const recoveryMs = Date.now() - liftedAt;
    await sleep(1_000);
    const outages = await Promise.all(pollers.map((p) => p.stop()));
    await stopChurn();
    const died = before.filter((s) => s !== injected.killed && !alive(s)).length;
    const fire = await crossTriggers(triggers);
    const ws = await socketViews();
    const orders = await lostOrDoubled();
    const problems = await audit();
    const row: Row = {
      fault,
      died,
      audit: problems,
      lost: orders.lost,
      doubled: orders.doubled,
      fired: fire.fired,
      fireMaxMs: fire.maxMs,
      missed: fire.missed,
      wsOk: ws.ok,
      wsTotal: ws.total,
      outageMs: Math.max(...outages),
      boundMs: injected.durationMs + OUTAGE_SLACK_MS,
      recoveryMs,
    };
    rows.push(row);
    console.log(
      `[${fault}] fault ${injected.durationMs} ms, recovered ${recoveryMs} ms after; outages ${outages.map((o) => `${o} ms`).join(', ')}; ` +
        `fire max ${fire.maxMs} ms (${fire.fired} fired, ${fire.missed} missed); ws ${ws.ok}/${ws.total}; lost ${orders.lost} doubled ${orders.doubled}; ` +
        `audit ${problems.length ? problems.join('; ') : 'clean'}; ${acked.length} orders acknowledged so far` +
        (ws.problems.length ? `\n  ws: ${ws.problems.join('\n  ws: ')}` : '') +
        (orders.problems.length ? `\n  orders: ${orders.problems.join('\n  orders: ')}` : ''),
    );
    expect(row.died, 'servers died').toBe(0);
    expect(row.audit, 'ledger audit').toEqual([]);
    expect(orders.problems, 'acknowledged orders lost or doubled').toEqual([]);
    expect(fire.missed, 'triggers that did not fire within 5 s').toBe(0);
    expect(row.fireMaxMs, 'trigger fire latency').toBeLessThanOrEqual(FIRE_BOUND_MS);
    expect(ws.problems, 'socket views').toEqual([]);
    expect(row.outageMs, 'API unavailable').toBeLessThanOrEqual(row.boundMs);
  }

  /** Stops a server (SIGSTOP) for `ms`, then lets it go on. */
  async function pause(server: ClusterServer, ms: number) {
    const from = Date.now();
    server.child.kill('SIGSTOP');
    try {
      await sleep(ms);
    } finally {
      server.child.kill('SIGCONT');
    }
    return Date.now() - from;
  }

  it('leader SIGKILL (restarted as a new server)', async () => {
    await runFault('leader SIGKILL', async (pollers) => {
      const leader = await findLeader();
      killed.add(leader);
      leader.child.kill('SIGKILL');
      await pollers.find((p) => p.server === leader)?.abandon();
      const replacement = cluster.start();
      await until(
        'another leader',
        async () => {
          const port = await cluster.leaderPort();
          return port !== null && port !== leader.port;
        },
        10_000,
      );
      await replacement;
      return { durationMs: 0, killed: leader };
    });
  });

  it('leader SIGSTOP for 20 s (then SIGCONT: the old leader is fenced)', async () => {
    await runFault('leader SIGSTOP 20 s', async () => {
      const leader = await findLeader();
      const pausedMs = await pause(leader, 20_000);
      // Leadership moved while it was stopped; once running again it must act as a follower.
      const next = await until(
        'the next leader',
        async () => {
          const port = await cluster.leaderPort();
          return port !== null && port !== leader.port ? port : null;
        },
        10_000,
      );
      console.log(`leader ${leader.port} stopped ${pausedMs} ms; leader now ${next}`);
      return { durationMs: pausedMs };
    });
  });

  it('PostgreSQL immediate restart', async () => {
    await runFault('PostgreSQL immediate restart', async () => {
      const from = Date.now();
      pgctl('restart', '-m', 'immediate');
      return { durationMs: Date.now() - from };
    });
  });

  it('pg_terminate_backend of every server backend', async () => {
    await runFault('pg_terminate_backend all', async () => {
      const rows = await cluster.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      console.log(`terminated ${rows[0]!.n} backends`);
      return { durationMs: 0 };
    });
  });

  it('PostgreSQL down for 15 s', async () => {
    await runFault('PostgreSQL down 15 s', async () => {
      const from = Date.now();
      pgctl('stop', '-m', 'immediate');
      await sleep(15_000);
      pgctl('start');
      return { durationMs: Date.now() - from };
    });
  });

  it('Redis SIGSTOP for 10 s', async () => {
    await runFault('Redis SIGSTOP 10 s', async () => {
      const from = Date.now();
      redis.signal('SIGSTOP');
      await sleep(10_000);
      redis.signal('SIGCONT');
      return { durationMs: Date.now() - from };
    });
  });

  it('Redis restart (its data lost)', async () => {
    await runFault('Redis restart', async () => {
      const from = Date.now();
      await redis.stop();
      await redis.start();
      return { durationMs: Date.now() - from };
    });
  });

  it("the leader's subscriber connection killed (CLIENT KILL on the private Redis)", async () => {
    await runFault("leader's Redis subscriber killed", async () => {
      const leader = await findLeader();
      // The leader's subscriber: the pubsub client whose local port belongs to the leader's process.
      const list = String(await redis.command('CLIENT', 'LIST', 'TYPE', 'pubsub'));
      const ids: string[] = [];
      for (const line of list.split('\n').filter(Boolean)) {
        const id = /\bid=(\d+)/.exec(line)?.[1];
        const port = /\baddr=[\d.]+:(\d+)/.exec(line)?.[1];
        if (!id || !port) continue;
        const owner = sh('ss', ['-tnpH', 'state', 'established', `( sport = :${port} )`]);
        if (owner.includes(`pid=${leader.child.pid},`)) ids.push(id);
      }
      expect(ids.length, `the leader's subscriber among:\n${list}`).toBeGreaterThan(0);
      for (const id of ids) await redis.command('CLIENT', 'KILL', 'ID', id);
      console.log(
        `killed the leader's subscriber connection (client ${ids.join(', ')}) of ${list.split('\n').filter(Boolean).length} pubsub clients`,
      );
      return { durationMs: 0 };
    });
  });

  it('a follower SIGSTOP for 10 s', async () => {
    await runFault('follower SIGSTOP 10 s', async () => {
      const leader = await findLeader();
      const follower = liveServers().find((s) => s !== leader)!;
      return { durationMs: await pause(follower, 10_000) };
    });
  });

  it('recorded every fault, each within its bounds', () => {
    expect(rows.map((r) => r.fault)).toHaveLength(9);
  });
});
