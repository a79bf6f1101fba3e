/**
 * npm run bench:ws [-- --clients 5000 --seconds 30 --rate 4 --workers 2]
 *
 * Starts the server (child process), connects N socket clients (in worker processes) subscribed
 * to DAY_MARKET and one KLINE topic each, runs the simulator at `rate` ticks per second per symbol,
 * and prints deliveries per second, tick-to-client delay percentiles, dropped clients, server CPU
 * and memory. Everything stays on 127.0.0.1.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: process.env.BENCH_CLIENTS ?? '5000' },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '30' },
    rate: { type: 'string', default: process.env.BENCH_RATE ?? '4' },
    workers: { type: 'string', default: process.env.BENCH_WORKERS ?? '2' },
    flush: { type: 'string', default: process.env.WS_FLUSH_MS ?? '100' },
  },
});
const clients = Number(values.clients);
const seconds = Number(values.seconds);
const workers = Math.max(1, Number(values.workers));
const dir = import.meta.dirname;
const tsx = ['--import', 'tsx'];

function waitFor<T>(child: ChildProcess, event: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: { event: string }) => {
      if (msg.event !== event) return;
      child.off('message', onMessage);
      resolve(msg as T);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`${path.basename(String(child.spawnfile))} exited (${code}) before ${event}`)));
  });
}

type ServerStats = {
  loop: { p50: number; p99: number; max: number };
  pass: { p50: number; p99: number; max: number };
  cpu: { user: number; system: number };
  rss: number;
  peakRss: number;
  connections: number;
  accepted: number;
  refused: number;
  dropped: number;
  frames: number;
};

async function main() {
  const server = fork(path.join(dir, 'ws-server.ts'), [], {
    // BENCH_PROFILE=<dir> writes a CPU profile of the server there.
    execArgv: process.env.BENCH_PROFILE ? [...tsx, '--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : tsx,
    env: { ...process.env, PRICE_TICK_RATE: values.rate, WS_FLUSH_MS: values.flush },
  });
  const spawned: ChildProcess[] = [server];
  process.on('exit', () => spawned.forEach((c) => c.kill()));
  const { port, symbols } = await waitFor<{ port: number; symbols: string[] }>(server, 'listening');
  console.log(
    `server pid ${server.pid} on 127.0.0.1:${port}, ${symbols.length} symbols at ${values.rate} ticks/s each, flush every ${values.flush} ms`,
  );

  const perWorker = Math.ceil(clients / workers);
  const children = Array.from({ length: workers }, (_, w) =>
    fork(path.join(dir, 'ws-clients.ts'), [], {
      execArgv: tsx,
      env: {
        ...process.env,
        BENCH_URL: `ws://127.0.0.1:${port}/v1/ws`,
        BENCH_CLIENTS: String(Math.min(perWorker, clients - w * perWorker)),
        BENCH_CODES: symbols.join(','),
        BENCH_OFFSET: String(w * perWorker),
      },
    }),
  );
  spawned.push(...children);
  const connectStarted = Date.now();
  const connectedAll = children.map((c) => waitFor<{ connected: number; failed: number }>(c, 'connected'));
  for (const c of children) c.send({ cmd: 'connect' });
  const connected = await Promise.all(connectedAll);
  const total = connected.reduce((s, c) => s + c.connected, 0);
  console.log(`${total} clients connected in ${Date.now() - connectStarted} ms (${connected.reduce((s, c) => s + c.failed, 0)} failed)`);

  const feedStarted = waitFor(server, 'feed-started');
  server.send({ cmd: 'start-feed' });
  await feedStarted;
  await new Promise((r) => setTimeout(r, 3000));

  const stats = () => {
    const p = waitFor<ServerStats>(server, 'stats');
    server.send({ cmd: 'stats' });
    return p;
  };
  const before = await stats();
  for (const c of children) c.send({ cmd: 'start' });
  const started = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const results = children.map((c) =>
    waitFor<{ deliveries: number; closed: number; cpuSeconds: number; histogram: number[] }>(c, 'result'),
  );
  for (const c of children) c.send({ cmd: 'stop' });
  const done = await Promise.all(results);
  const elapsed = (Date.now() - started) / 1000;
  const after = await stats();

  const histogram = new Array<number>(done[0]!.histogram.length).fill(0);
  for (const r of done) r.histogram.forEach((n, i) => (histogram[i]! += n));
  const deliveries = done.reduce((s, r) => s + r.deliveries, 0);
  const percentile = (p: number) => {
    let seen = 0;
    const target = Math.ceil(deliveries * p);
    for (let i = 0; i < histogram.length; i++) if ((seen += histogram[i]!) >= target) return i;
    return histogram.length - 1;
  };
  const max = histogram.reduce((m, n, i) => (n ? i : m), 0);
  const cpuSeconds = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1e6;
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;

  console.log(
    [
      '',
      `clients                 ${total} (DAY_MARKET + one KLINE topic each)`,
      `duration                ${elapsed.toFixed(1)} s`,
      `deliveries              ${deliveries} (${Math.round(deliveries / elapsed)}/s)`,
      `delay tick -> client    p50 ${percentile(0.5)} ms, p99 ${percentile(0.99)} ms, max ${max} ms`,
      `server frames sent      ${Math.round((after.frames - before.frames) / elapsed)}/s`,
      `dropped clients         ${done.reduce((s, r) => s + r.closed, 0)} (server dropped ${after.dropped - before.dropped}, refused ${after.refused})`,
      `server CPU              ${cpuSeconds.toFixed(1)} s over ${elapsed.toFixed(1)} s = ${((cpuSeconds / elapsed) * 100).toFixed(0)}% of one core`,
      `server flush pass       p50 ${after.pass.p50.toFixed(1)} ms, p99 ${after.pass.p99.toFixed(1)} ms, max ${after.pass.max.toFixed(1)} ms (wall time to flush one group of clients)`,
      `server event loop delay p50 ${after.loop.p50.toFixed(0)} ms, p99 ${after.loop.p99.toFixed(0)} ms, max ${after.loop.max.toFixed(0)} ms`,
      `server memory           RSS ${mib(after.rss)}, peak ${mib(after.peakRss)}`,
      `client processes CPU    ${done.map((r) => `${((r.cpuSeconds / elapsed) * 100).toFixed(0)}%`).join(', ')} of one core`,
      '',
    ].join('\n'),
  );

  for (const c of children) c.send({ cmd: 'exit' });
  server.send({ cmd: 'stop' });
  await new Promise((r) => server.once('exit', r));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
