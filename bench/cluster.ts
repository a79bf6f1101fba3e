/**
 * npm run bench:cluster [-- --servers 1,2,3 --clients 1500 --seconds 15 --orders-seconds 10 --connections 24]
 *
 * For 1, 2 and 3 servers on one PostgreSQL (TEST_DATABASE_URL or DATABASE_URL) and one Redis
 * (REDIS_URL), all on this machine: websocket fan-out (clients spread over the servers, each on
 * DAY_MARKET and one KLINE topic; deliveries per second and tick-to-client delay) and order
 * throughput (autocannon, each connection a demo trader doing submit then close, spread over the
 * servers). Prints one table. Everything stays on 127.0.0.1.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Cluster, api, startCluster } from '../apps/server/test/cluster-kit.ts';

const { values } = parseArgs({
  options: {
    servers: { type: 'string', default: '1,2,3' },
    clients: { type: 'string', default: '1500' },
    seconds: { type: 'string', default: '15' },
    rate: { type: 'string', default: '4' },
    'orders-seconds': { type: 'string', default: '10' },
    connections: { type: 'string', default: '24' },
  },
});
const serverCounts = values.servers.split(',').map(Number);
const clients = Number(values.clients);
const seconds = Number(values.seconds);
const ordersSeconds = Number(values['orders-seconds']);
const connections = Number(values.connections);
const tsx = ['--import', 'tsx'];

/** The part of autocannon's result this benchmark reads (the package ships no types). */
interface CannonResult {
  requests: { total: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<CannonResult>;

interface Row {
  servers: number;
  clients: number;
  deliveriesPerS: number;
  p50: number;
  p99: number;
  dropped: number;
  ordersPerS: number;
  orderP50: number;
  orderP99: number;
  orderErrors: number;
}

function waitFor<T>(child: ChildProcess, event: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: { event: string }) => {
      if (msg.event !== event) return;
      child.off('message', onMessage);
      resolve(msg as T);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`client worker exited (${code}) before ${event}`)));
  });
}

async function fanOut(cluster: Cluster, codes: string[]): Promise<Pick<Row, 'clients' | 'deliveriesPerS' | 'p50' | 'p99' | 'dropped'>> {
  const n = cluster.servers.length;
  const workers = Math.max(2, n);
  const perWorker = Math.ceil(clients / workers);
  const children = Array.from({ length: workers }, (_, w) =>
    fork(path.join(import.meta.dirname, 'ws-clients.ts'), [], {
      execArgv: tsx,
      env: {
        ...process.env,
        BENCH_URL: `${cluster.servers[w % n]!.url.replace('http', 'ws')}/v1/ws`,
        BENCH_CLIENTS: String(Math.min(perWorker, clients - w * perWorker)),
        BENCH_CODES: codes.join(','),
        BENCH_OFFSET: String(w * perWorker),
      },
    }),
  );
  const connected = children.map((c) => waitFor<{ connected: number; failed: number }>(c, 'connected'));
  for (const c of children) c.send({ cmd: 'connect' });
  const total = (await Promise.all(connected)).reduce((s, c) => s + c.connected, 0);
  await new Promise((r) => setTimeout(r, 3_000));
  for (const c of children) c.send({ cmd: 'start' });
  const started = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const results = children.map((c) => waitFor<{ deliveries: number; closed: number; histogram: number[] }>(c, 'result'));
  for (const c of children) c.send({ cmd: 'stop' });
  const done = await Promise.all(results);
  const elapsed = (Date.now() - started) / 1000;
  for (const c of children) c.send({ cmd: 'exit' });

  const histogram = new Array<number>(done[0]!.histogram.length).fill(0);
  for (const r of done) r.histogram.forEach((v, i) => (histogram[i]! += v));
  const deliveries = done.reduce((s, r) => s + r.deliveries, 0);
  const percentile = (p: number) => {
    let seen = 0;
    const target = Math.ceil(deliveries * p);
    for (let i = 0; i < histogram.length; i++) if ((seen += histogram[i]!) >= target) return i;
    return histogram.length - 1;
  };
  return { clients: total, deliveriesPerS: Math.round(deliveries / elapsed), p50: percentile(0.5), p99: percentile(0.99), dropped: done.reduce((s, r) => s + r.closed, 0) };
}

async function demoToken(base: string): Promise<string> {
  const created = await api(base, 'GET', '/api/user/createAccountDemoForU');
  if (created.code !== 1) throw new Error(`demo account: ${created.msg}`);
  const login = await api(base, 'POST', '/api/user/loginForU', { demo_id: created.data.demo_id });
  if (login.code !== 1) throw new Error(`demo login: ${login.msg}`);
  return login.data.token as string;
}

/** Each autocannon connection is one demo trader: submit a market buy, then close it, again and again. */
async function orders(cluster: Cluster, forexId: number): Promise<Pick<Row, 'ordersPerS' | 'orderP50' | 'orderP99' | 'orderErrors'>> {
  const n = cluster.servers.length;
  const runs = await Promise.all(
    cluster.servers.map(async (server, s) => {
      const count = Math.floor(connections / n) + (s < connections % n ? 1 : 0);
      const tokens: string[] = [];
      for (let i = 0; i < count; i++) tokens.push(await demoToken(server.url));
      return { server, tokens };
    }),
  );
  let errors = 0;
  const check = (body: string) => {
    try {
      const parsed = JSON.parse(body) as { code: number; data?: { Id?: number } };
      if (parsed.code !== 1) errors++;
      return parsed;
    } catch {
      errors++;
      return null;
    }
  };
  const results = await Promise.all(
    runs.map(({ server, tokens }) => {
      let next = 0;
      return autocannon({
        url: server.url,
        connections: tokens.length,
        duration: ordersSeconds,
        requests: [
          {
            method: 'GET',
            setupRequest: (req: any, context: any) => {
              context.token ??= tokens[next++ % tokens.length];
              return { ...req, path: `/v1/api/forex/submit?type=1&cont=0.01&forex_id=${forexId}&multiple=10`, headers: { authorization: context.token } };
            },
            onResponse: (_status: number, body: string, context: any) => {
              context.orderId = check(body)?.data?.Id;
            },
          },
          {
            method: 'GET',
            setupRequest: (req: any, context: any) => ({ ...req, path: `/v1/api/forex/close?id=${context.orderId ?? 0}`, headers: { authorization: context.token } }),
            onResponse: (_status: number, body: string) => void check(body),
          },
        ],
      });
    }),
  );
  const requests = results.reduce((s, r) => s + r.requests.total, 0);
  const weighted = (pick: (r: CannonResult) => number) => Math.round(results.reduce((s, r) => s + pick(r) * r.requests.total, 0) / Math.max(1, requests));
  return {
    ordersPerS: Math.round(requests / 2 / ordersSeconds),
    orderP50: weighted((r) => r.latency.p50),
    orderP99: weighted((r) => r.latency.p99),
    orderErrors: errors + results.reduce((s, r) => s + r.errors + r.non2xx, 0),
  };
}

async function main() {
  const rows: Row[] = [];
  for (const n of serverCounts) {
    console.log(`\nstarting ${n} server(s)...`);
    const cluster = await startCluster(n, {
      PRICE_SOURCE: 'simulator',
      PRICE_TICK_RATE: values.rate,
      MARKET_ALWAYS_OPEN: '1',
      HISTORY_BARS: '10',
      LOG_LEVEL: 'error',
      WS_MAX_CONNECTIONS_PER_IP: '100000',
      DEMO_CREATE_RATE_LIMIT: '100000',
    });
    try {
      const list = await api(cluster.servers[0]!.url, 'GET', '/v1/api/forex/trade_list');
      const symbols = list.data as { Id: number; Code: string }[];
      const codes = symbols.map((s) => s.Code);
      const btc = symbols.find((s) => s.Code === 'BTCUSDT') ?? symbols[0]!;
      console.log(`  fan-out: ${clients} clients over ${n} server(s) for ${seconds} s...`);
      const ws = await fanOut(cluster, codes);
      console.log(`  orders: ${connections} traders over ${n} server(s) for ${ordersSeconds} s...`);
      const ord = await orders(cluster, btc.Id);
      rows.push({ servers: n, ...ws, ...ord });
    } finally {
      await cluster.close();
    }
  }
  console.log(`\nwebsocket fan-out (${values.rate} ticks/s per symbol, DAY_MARKET + one KLINE topic per client) and orders (submit + close):\n`);
  console.log('| servers | clients | deliveries/s | delay p50 | delay p99 | dropped | orders/s (submit+close) | request p50 | request p99 | errors |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(`| ${r.servers} | ${r.clients} | ${r.deliveriesPerS} | ${r.p50} ms | ${r.p99} ms | ${r.dropped} | ${r.ordersPerS} | ${r.orderP50} ms | ${r.orderP99} ms | ${r.orderErrors} |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
