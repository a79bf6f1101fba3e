/**
 * `npm run bench:orders`: the real server in a child process, 200 demo accounts created and
 * logged in through the API, then autocannon sends market orders and their closes
 * (/v1/api/forex/submit then /v1/api/forex/close, each account in turn) for BENCH_SECONDS.
 * Prints orders per second and latency, on PGlite and, with BENCH_DATABASE_URL, on PostgreSQL.
 * Before each product run it measures the database's own limit in the same run: BENCH_CONNECTIONS
 * raw clients, each doing per request BEGIN, an UPDATE of a balance row, an INSERT, COMMIT (on
 * PGlite, the same loop in this process); the server's pool gets as many connections. It prints the product's orders/s as a share of the limit's
 * transactions/s and its p99 against the limit's p99, and exits non-zero on PostgreSQL when the
 * product is under 60% of the limit's throughput or its p99 above 3 times the limit's.
 * On PostgreSQL it also measures, between the limit and the product, the floor (orders-floor.ts):
 * the least an HTTP server does per order (node:http, the token looked up in memory, the limit's
 * transaction), driven as the product is; it prints the floor's CPU per request beside the
 * product's CPU per order; then the same floor in Fastify (no logger, plugin or schema), the chosen
 * framework's own share.
 *
 * BENCH_TARGETS=pglite,postgres  BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
 * BENCH_CONNECTIONS (default 32), BENCH_USERS (200), BENCH_SECONDS (20); BENCH_SERVER_NODE_ARGS
 * (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") are passed to the server's node.
 * Logins come with distinct X-Forwarded-For addresses (TRUST_PROXY=1): the login call allows
 * 30 attempts a minute per address, and all 200 logins come from 127.0.0.1 here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { auditLedger } from '../apps/server/src/modules/ledger/ledger-service.ts';
import { request, type ServerProcess, startServer } from '../apps/server/test/trading/server-process.ts';
import { openDatabase } from '../apps/server/src/platform/db/client.ts';
import { createScratchDatabase } from '../apps/server/test/scratch-database.ts';

const USERS = Number(process.env.BENCH_USERS ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const TARGETS = (process.env.BENCH_TARGETS ?? (process.env.BENCH_DATABASE_URL ? 'pglite,postgres' : 'pglite')).split(',');
const log = (line: string) => process.stdout.write(`${line}\n`);

/** The parts of autocannon this benchmark uses (the package ships no types). */
type Context = Record<string, unknown>;
interface CannonRequest {
  method: string;
  setupRequest(req: { headers?: Record<string, string> }, context: Context): object;
  onResponse(status: number, body: string, context: Context): void;
}
interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: CannonRequest[];
}) => Promise<CannonResult>;

/** CPU seconds used so far by the server process, all PostgreSQL processes and this process. */
interface CpuSample {
  at: number;
  server: number;
  postgres: number;
  bench: number;
}
const TICKS_PER_SECOND = 100;
function procCpu(pid: string | number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
function cpuSample(serverPid = 0): CpuSample {
  let postgres = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') postgres += procCpu(pid);
    } catch {
      // gone
    }
  }
  const own = process.cpuUsage();
  return { at: performance.now(), server: serverPid ? procCpu(serverPid) : 0, postgres, bench: (own.user + own.system) / 1e6 };
}
function cpuShare(a: CpuSample, b: CpuSample): { server: string; postgres: string; bench: string } {
  const seconds = (b.at - a.at) / 1000;
  const pct = (x: number) => `${Math.round((x / seconds) * 100)}%`;
  // PostgreSQL backends that ended during the run take their CPU time with them: a lower bound.
  return { server: pct(b.server - a.server), postgres: pct(Math.max(0, b.postgres - a.postgres)), bench: pct(b.bench - a.bench) };
}

/** The limit's measurement: transactions per second and their latency, in ms; on PostgreSQL, its CPU per transaction. */
interface Limit {
  perSecond: number;
  p50: number;
  p99: number;
  total: number;
  /** CPU ms per transaction of all PostgreSQL processes and of this process (the raw loop); PostgreSQL only. */
  cpuMs?: { postgres: number; bench: number };
}
/** Runs one transaction on the given worker: BEGIN, UPDATE of a balance row, INSERT, COMMIT. */
type LimitTransaction = (worker: number, account: number, amount: number) => Promise<void>;

const LIMIT_SCHEMA = [
  'create table bench_balance (id integer primary key, balance numeric(20, 4) not null)',
  'create table bench_posting (id bigserial primary key, account_id integer not null, amount numeric(20, 4) not null, created_at timestamptz not null default now())',
  `insert into bench_balance select g, 1000000 from generate_series(0, ${USERS - 1}) g`,
];
const LIMIT_UPDATE = 'update bench_balance set balance = balance + $1 where id = $2';
const LIMIT_INSERT = 'insert into bench_posting (account_id, amount) values ($1, $2)';

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : 0;
}

/** CONNECTIONS workers, each sending one transaction after the other for SECONDS, on accounts taken in turn like the product's run. */
async function measureLimit(transaction: LimitTransaction): Promise<Limit> {
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, worker) => {
      while (performance.now() < end) {
        const at = performance.now();
        await transaction(worker, next++ % USERS, next % 2 ? 1 : -1);
        latencies.push(performance.now() - at);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    perSecond: latencies.length / seconds,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    total: latencies.length,
  };
}

async function postgresLimit(base: string): Promise<Limit> {
  const scratch = await createScratchDatabase(base, 'bench_orders_limit');
  const clients = Array.from({ length: CONNECTIONS }, () => new pg.Client({ connectionString: scratch.url }));
  try {
    await Promise.all(clients.map((client) => client.connect()));
    for (const statement of LIMIT_SCHEMA) await clients[0]!.query(statement);
    const before = cpuSample();
    const limit = await measureLimit(async (worker, account, amount) => {
      const client = clients[worker]!;
      await client.query('begin');
      await client.query({ name: 'limit-update', text: LIMIT_UPDATE, values: [amount, account] });
      await client.query({ name: 'limit-insert', text: LIMIT_INSERT, values: [account, amount] });
      await client.query('commit');
    });
    // Sampled before the clients end, while their backends still hold their CPU time.
    const after = cpuSample();
    const perTx = (seconds: number) => (seconds * 1000) / Math.max(1, limit.total);
    return { ...limit, cpuMs: { postgres: perTx(after.postgres - before.postgres), bench: perTx(after.bench - before.bench) } };
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await scratch.drop();
  }
}

/** PGlite is one connection in one process: the workers' transactions queue on it, as the server's do. */
async function pgliteLimit(): Promise<Limit> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-orders-limit-'));
  const db = new PGlite(dir);
  try {
    for (const statement of LIMIT_SCHEMA) await db.exec(statement);
    return await measureLimit((_worker, account, amount) =>
      db.transaction(async (tx) => {
        await tx.query(LIMIT_UPDATE, [amount, account]);
        await tx.query(LIMIT_INSERT, [account, amount]);
      }),
    );
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** autocannon's run of BENCH_SECONDS: each connection sends a submit, then the close of what it opened, with the next account's token. */
async function drive(url: string, tokens: string[], submitPath: string) {
  let next = 0;
  let refused = 0;
  const reasons = new Map<string, number>();
  const refuse = (status: number, body: string) => {
    refused++;
    let reason = `HTTP ${status}`;
    try {
      const res = JSON.parse(body) as { code: number; msg: string };
      reason = `${res.code} ${res.msg}`;
    } catch {
      // not an envelope
    }
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  };
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'GET',
        setupRequest: (req, context) => {
          context.token = tokens[next++ % tokens.length];
          return { ...req, path: `${submitPath}&t=${Date.now()}`, headers: { ...req.headers, authorization: context.token as string } };
        },
        onResponse: (status, body, context) => {
          const res = status === 200 ? (JSON.parse(body) as { code: number; data?: { Id: number } }) : { code: 0 };
          if (res.code !== 1) refuse(status, body);
          context.orderId = res.data?.Id ?? 0;
        },
      },
      {
        method: 'GET',
        setupRequest: (req, context) => ({
          ...req,
          path: `/v1/api/forex/close?id=${context.orderId as number}&t=${Date.now()}`,
          headers: { ...req.headers, authorization: context.token as string },
        }),
        onResponse: (status, body) => {
          if (status !== 200 || (JSON.parse(body) as { code: number }).code !== 1) refuse(status, body);
        },
      },
    ],
  });
  return { result, refused, reasons };
}

/** The floor's measurement (bench/orders-floor.ts): requests/s, latency in ms, and CPU per request in ms. */
interface Floor {
  perSecond: number;
  p50: number;
  p99: number;
  total: number;
  failed: number;
  cpuMs: { server: number; postgres: number };
}

/** The least an HTTP server does per order (orders-floor.ts), driven exactly as the product is, on a scratch database of the limit's tables. */
async function postgresFloor(base: string, http: 'node' | 'fastify'): Promise<Floor> {
  const scratch = await createScratchDatabase(base, 'bench_orders_floor');
  const tokens = Array.from({ length: USERS }, (_, i) => `floor-${i}-${Math.random().toString(36).slice(2)}`);
  let child: ChildProcess | null = null;
  try {
    const setup = new pg.Client({ connectionString: scratch.url });
    await setup.connect();
    try {
      for (const statement of LIMIT_SCHEMA) await setup.query(statement);
    } finally {
      await setup.end();
    }
    child = fork(path.join(import.meta.dirname, 'orders-floor.ts'), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, DATABASE_URL: scratch.url, POOL_SIZE: String(CONNECTIONS), TOKENS: JSON.stringify(tokens), FLOOR_HTTP: http },
    });
    const port = await new Promise<number>((resolve, reject) => {
      child!.once('message', (msg: { port: number }) => resolve(msg.port));
      child!.once('exit', (code) => reject(new Error(`orders-floor.ts exited (${code}) before listening`)));
    });
    const before = cpuSample(child.pid!);
    const { result, refused } = await drive(`http://127.0.0.1:${port}`, tokens, '/floor?');
    const after = cpuSample(child.pid!);
    const perRequest = (seconds: number) => (seconds * 1000) / Math.max(1, result.requests.total);
    return {
      perSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      total: result.requests.total,
      failed: refused + result.errors,
      cpuMs: { server: perRequest(after.server - before.server), postgres: perRequest(Math.max(0, after.postgres - before.postgres)) },
    };
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await scratch.drop();
  }
}

const THROUGHPUT_TARGET = 0.6;
const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789';
const P99_TARGET = 3;

const freshPostgres = (base: string) => createScratchDatabase(base, 'bench_orders');

async function run(target: string) {
  const limit = target === 'postgres' ? await postgresLimit(process.env.BENCH_DATABASE_URL!) : await pgliteLimit();
  log(
    `${target} limit (${CONNECTIONS} raw connections, BEGIN + UPDATE balance + INSERT + COMMIT): ${Math.round(limit.perSecond).toLocaleString('en')} tx/s, ` +
      `p50 ${limit.p50} ms, p99 ${limit.p99} ms (${limit.total.toLocaleString('en')} transactions); load average ${loadAverage()}`,
  );
  if (limit.cpuMs)
    log(`  limit CPU per transaction: PostgreSQL ${limit.cpuMs.postgres.toFixed(3)} ms, the raw loop ${limit.cpuMs.bench.toFixed(3)} ms`);
  // Both floors, the bare one first; the product is compared with the bare one.
  const floors =
    target === 'postgres'
      ? [await postgresFloor(process.env.BENCH_DATABASE_URL!, 'node'), await postgresFloor(process.env.BENCH_DATABASE_URL!, 'fastify')]
      : [];
  for (const [i, floor] of floors.entries())
    log(
      `${target} floor${i ? ' in Fastify' : ''} (${i ? 'Fastify, no logger, plugin or schema' : 'node:http'}, the token looked up in memory, the limit's transaction per request, same load): ` +
        `${Math.round(floor.perSecond).toLocaleString('en')} requests/s (${Math.round((floor.perSecond / limit.perSecond) * 100)}% of the limit), ` +
        `p50 ${floor.p50} ms, p99 ${floor.p99} ms (${(floor.p99 / Math.max(limit.p99, 0.1)).toFixed(1)}x the limit's), ${floor.failed} failed; ` +
        `CPU per request: server ${floor.cpuMs.server.toFixed(2)} ms, PostgreSQL ${floor.cpuMs.postgres.toFixed(2)} ms; load average ${loadAverage()}`,
    );
  const floor = floors[0];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-orders-'));
  // BTCUSDT at its seeded price about twice a second, so that its quote stays live (it never moves: no trigger fires).
  const replay = path.join(dir, 'btc-steady.csv');
  fs.writeFileSync(replay, 'time,code,bid,ask\n0,BTCUSDT,95000,95000\n500,BTCUSDT,95000,95000\n');
  const fresh = target === 'postgres' ? await freshPostgres(process.env.BENCH_DATABASE_URL!) : null;
  let server: ServerProcess | null = null;
  try {
    server = await startServer(
      {
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        DATA_DIR: dir,
        ...(fresh ? { DATABASE_URL: fresh.url } : {}),
        // As many database connections as the limit's loop had.
        DATABASE_POOL_SIZE: String(CONNECTIONS),
        PRICE_SOURCE: 'replay',
        REPLAY_FILE: replay,
        MARKET_ALWAYS_OPEN: '1',
        HISTORY_BARS: '0',
        TRADING_TEST_CONTROLS: '1',
        RATE_LIMIT_MAX: '100000000',
        DEMO_CREATE_RATE_LIMIT: '100000',
        TRUST_PROXY: '1',
        ADMIN_PASSWORD: 'bench-password-1',
        METRICS_TOKEN: BENCH_METRICS_TOKEN,
      },
      120_000,
      process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean),
    );
    const base = server.url;
    const symbols = await request(base, 'GET', '/v1/api/forex/trade_list', { searchCurrency: 'BTCUSDT' });
    const btc = symbols.data.find((s: { Code: string }) => s.Code === 'BTCUSDT').Id as number;
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const created = await request(base, 'GET', '/api/user/createAccountDemoForU');
      const login = await request(
        base,
        'POST',
        '/api/user/loginForU',
        { demo_id: created.data.demo_id },
        { 'x-forwarded-for': `10.77.${i >> 8}.${i & 255}` },
      );
      if (login.code !== 1) throw new Error(`login failed: ${login.msg}`);
      tokens.push(login.data.token);
    }
    const submitPath = `/v1/api/forex/submit?type=1&cont=0.01&forex_id=${btc}&status=1&multiple=20`;
    const cpuBefore = cpuSample(server.child.pid!);
    const { result, refused, reasons } = await drive(base, tokens, submitPath);
    const cpuAfter = cpuSample(server.child.pid!);
    const cpu = cpuShare(cpuBefore, cpuAfter);
    // CPU per order moves less with the machine's load than orders/s do.
    const perOrder = (seconds: number) => (seconds * 1000) / Math.max(1, result.requests.total);
    const serverMsPerOrder = perOrder(cpuAfter.server - cpuBefore.server);
    const postgresMsPerOrder = perOrder(Math.max(0, cpuAfter.postgres - cpuBefore.postgres));
    const idle = await request(base, 'GET', '/api/test/trading/idle');
    log(
      `${target}: ${Math.round(result.requests.average).toLocaleString('en')} orders/s (submits and closes; ${Math.round(result.requests.average / 2)} round trips/s), ` +
        `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ` +
        `${result.requests.total.toLocaleString('en')} requests, ${result.non2xx} non-2xx, ${result.errors} errors, ${refused} refused; ` +
        `open positions left ${idle.data.positions}`,
    );
    const share = result.requests.average / limit.perSecond;
    const p99Ratio = result.latency.p99 / Math.max(limit.p99, 0.1);
    const met = share >= THROUGHPUT_TARGET && p99Ratio <= P99_TARGET;
    log(
      `  ${target} product/limit: throughput ${Math.round(share * 100)}% (target ${THROUGHPUT_TARGET * 100}%), p99 ${p99Ratio.toFixed(1)}x (target <= ${P99_TARGET}x): ` +
        `${met ? 'met' : target === 'postgres' ? 'NOT MET' : 'not met (PGlite: reported, not enforced)'}`,
    );
    if (!met && target === 'postgres') process.exitCode = 1;
    log(
      `  CPU during the run (% of one core): server ${cpu.server}, PostgreSQL ${cpu.postgres}, load generator ${cpu.bench}; ` +
        `per order: server ${serverMsPerOrder.toFixed(2)} ms, PostgreSQL ${postgresMsPerOrder.toFixed(2)} ms`,
    );
    if (floor)
      log(
        `  ${target} product/floor: throughput ${Math.round((result.requests.average / floor.perSecond) * 100)}%, p99 ${(result.latency.p99 / Math.max(floor.p99, 0.1)).toFixed(1)}x, ` +
          `server CPU per order ${(serverMsPerOrder / Math.max(floor.cpuMs.server, 0.001)).toFixed(1)}x, PostgreSQL CPU per order ${(postgresMsPerOrder / Math.max(floor.cpuMs.postgres, 0.001)).toFixed(1)}x`,
      );
    if (target === 'postgres') {
      // What the target asks of this machine's cores, at the CPU per order just measured.
      const wanted = limit.perSecond * THROUGHPUT_TARGET;
      const cores = (ms: number) => ((wanted * ms) / 1000).toFixed(2);
      log(
        `  the target's ${Math.round(wanted).toLocaleString('en')} orders/s at this CPU per order would take the server ${cores(serverMsPerOrder)} cores ` +
          `and PostgreSQL ${cores(postgresMsPerOrder)} cores, on a machine of ${os.cpus().length}` +
          (limit.cpuMs ? ` (the limit's transaction: PostgreSQL ${limit.cpuMs.postgres.toFixed(2)} ms)` : ''),
      );
    }
    // Group commit: how many calls each committed transaction wrote.
    const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })).text();
    const figure = (name: string) => Number(new RegExp(`${name}\\{path="orders"\\} ([0-9.e+]+)`).exec(metrics)?.[1] ?? 0);
    const [calls, transactions] = [figure('tp_group_commit_size_sum'), figure('tp_group_commit_size_count')];
    if (transactions)
      log(
        `  group commit: ${transactions.toLocaleString('en')} transactions wrote ${calls.toLocaleString('en')} submits and closes ` +
          `(${(calls / transactions).toFixed(2)} per transaction), ${figure('tp_group_commit_failures_total')} groups written again call by call`,
      );
    for (const [reason, count] of reasons) log(`  refused ${count}x: ${reason}`);
    const faults = server
      .output()
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line))
      .slice(-3);
    for (const line of faults) log(`  server: ${line.slice(0, 600)}`);
    server.child.kill('SIGTERM');
    await server.exited;
    server = null;
    // The books after the run, read from the database the server left behind.
    const database = await openDatabase(fresh ? { url: fresh.url } : { dataDir: dir });
    try {
      const audit = await auditLedger(database.db);
      log(
        `  ledger audit: ${audit.ok ? 'ok' : `FAILED: ${audit.problems.join('; ')}`} (${audit.transactions.toLocaleString('en')} transactions, ${audit.accounts} accounts)`,
      );
      if (!audit.ok) process.exitCode = 1;
    } finally {
      await database.close();
    }
  } finally {
    server?.child.kill('SIGKILL');
    await fresh?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main() {
  log(
    `bench:orders: ${USERS} demo accounts, ${CONNECTIONS} connections, ${SECONDS} s per database, market order + close of 0.01 BTCUSDT; ${os.cpus().length} cores, load average ${loadAverage()}`,
  );
  for (const target of TARGETS) await run(target);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:orders failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
