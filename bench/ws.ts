/**
 * npm run bench:ws [-- --clients 5000,10000 --seconds 30 --rate 4 --workers 2 --pings spread|together]
 *
 * For each client count: starts the server (child process), connects the clients (in worker
 * processes) subscribed to DAY_MARKET and one KLINE topic each, runs the simulator at `rate` ticks
 * per second per symbol and measures tick-to-client delay, dropped clients, server CPU, event loop
 * and memory. Then, in the same run, the cost floor: a bare `ws` server (ws-floor.ts) writes the same
 * bytes per socket per second, in the same number of writes, to the same number of clients; the
 * product's server CPU is printed as a share of the floor's. Exits non-zero when a target is missed:
 * tick-to-client p99 under 60 ms at up to 5,000 clients and under 100 ms above, server event-loop
 * p99 under 20 ms (how late its 10 ms sampling timer fired: bench/loop-delay.ts), no client dropped.
 * Everything stays on 127.0.0.1.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: process.env.BENCH_CLIENTS ?? '5000,10000' },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '30' },
    rate: { type: 'string', default: process.env.BENCH_RATE ?? '4' },
    workers: { type: 'string', default: process.env.BENCH_WORKERS ?? '2' },
    flush: { type: 'string', default: process.env.WS_FLUSH_MS ?? '100' },
    // spread: each client pings every 5 s on its own phase (browsers opened at different times);
    // together: all clients at the same instant (as after a reconnect of everyone at once).
    pings: { type: 'string', default: process.env.BENCH_PINGS ?? 'spread' },
  },
});
const sizes = values.clients.split(',').map(Number);
const seconds = Number(values.seconds);
const workers = Math.max(1, Number(values.workers));
const dir = import.meta.dirname;
const tsx = ['--import', 'tsx'];
const LOOP_P99_TARGET_MS = 20;
const delayTarget = (clients: number) => (clients <= 5000 ? 60 : 100);

const spawned = new Set<ChildProcess>();
process.on('exit', () => spawned.forEach((c) => c.kill()));

function start(file: string, env: Record<string, string | undefined> = {}, execArgv = tsx): ChildProcess {
  const child = fork(path.join(dir, file), [], { execArgv, env: { ...process.env, ...env } });
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  return child;
}

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

function ask<T>(child: ChildProcess, cmd: string, event: string, extra: object = {}): Promise<T> {
  const p = waitFor<T>(child, event);
  child.send({ cmd, ...extra });
  return p;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cpuOf = (c: { user: number; system: number }) => (c.user + c.system) / 1e6;

type ClientResult = { deliveries: number; bytes: number; closed: number; cpuSeconds: number; histogram: number[] };
type Measured = {
  connected: number;
  elapsed: number;
  deliveries: number;
  bytes: number;
  closed: number;
  p50: number;
  p99: number;
  max: number;
  clientCpu: number[];
};

/** Connects `clients` sockets from worker processes, measures for `seconds` after `begin`, and closes them. */
async function withClients(url: string, clients: number, codes: string[], begin: () => Promise<void>): Promise<Measured> {
  const perWorker = Math.ceil(clients / workers);
  const children = Array.from({ length: workers }, (_, w) =>
    start('ws-clients.ts', {
      BENCH_URL: url,
      BENCH_CLIENTS: String(Math.max(0, Math.min(perWorker, clients - w * perWorker))),
      BENCH_CODES: codes.join(','),
      BENCH_OFFSET: String(w * perWorker),
      BENCH_PINGS: values.pings,
    }),
  );
  const connectStarted = Date.now();
  const connected = await Promise.all(children.map((c) => ask<{ connected: number; failed: number }>(c, 'connect', 'connected')));
  const total = connected.reduce((s, c) => s + c.connected, 0);
  console.log(`  ${total} clients connected in ${Date.now() - connectStarted} ms (${connected.reduce((s, c) => s + c.failed, 0)} failed)`);
  await begin();
  for (const c of children) c.send({ cmd: 'start' });
  const started = Date.now();
  await sleep(seconds * 1000);
  const done = await Promise.all(children.map((c) => ask<ClientResult>(c, 'stop', 'result')));
  const elapsed = (Date.now() - started) / 1000;
  for (const c of children) c.send({ cmd: 'exit' });

  const histogram = new Array<number>(done[0]!.histogram.length).fill(0);
  for (const r of done) r.histogram.forEach((n, i) => (histogram[i]! += n));
  const deliveries = done.reduce((s, r) => s + r.deliveries, 0);
  const percentile = (p: number) => {
    let seen = 0;
    const target = Math.ceil(deliveries * p);
    for (let i = 0; i < histogram.length; i++) if ((seen += histogram[i]!) >= target) return i;
    return histogram.length - 1;
  };
  return {
    connected: total,
    elapsed,
    deliveries,
    bytes: done.reduce((s, r) => s + r.bytes, 0),
    closed: done.reduce((s, r) => s + r.closed, 0),
    p50: percentile(0.5),
    p99: percentile(0.99),
    max: histogram.reduce((m, n, i) => (n ? i : m), 0),
    clientCpu: done.map((r) => r.cpuSeconds / elapsed),
  };
}

type ServerStats = {
  loop: { p50: number; p99: number; max: number };
  pass: { p50: number; p99: number; max: number };
  cpu: { user: number; system: number };
  rss: number;
  peakRss: number;
  dropped: number;
  refused: number;
  frames: number;
  writes: number;
  bytes: number;
};

async function runProduct(clients: number) {
  const server = start(
    'ws-server.ts',
    { PRICE_TICK_RATE: values.rate, WS_FLUSH_MS: values.flush },
    // BENCH_PROFILE=<dir> writes a CPU profile of the server there.
    // BENCH_SERVER_NODE_ARGS (e.g. --perf-basic-prof) are passed to its node too.
    [
      ...tsx,
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
  );
  const { port, symbols } = await waitFor<{ port: number; symbols: string[] }>(server, 'listening');
  console.log(
    `product: server pid ${server.pid}, ${symbols.length} symbols at ${values.rate} ticks/s each, flush passes every 2..${values.flush} ms`,
  );
  const {
    measured,
    before: b,
    after,
  } = await measureServer<ServerStats>(server, `ws://127.0.0.1:${port}/v1/ws`, clients, symbols, () =>
    ask(server, 'start-feed', 'feed-started'),
  );
  return {
    ...measured,
    frames: after.frames - b.frames,
    dropped: after.dropped - b.dropped,
    refused: after.refused,
    loop: after.loop,
    pass: after.pass,
    rss: after.rss,
    peakRss: after.peakRss,
  };
}

/**
 * Clients on a server process (the product or the floor), measured from 3 s after its feed
 * starts; its stats before and after, its CPU per second, and the writes and bytes in between.
 * The server is stopped at the end.
 */
async function measureServer<S extends FloorStats>(
  server: ChildProcess,
  url: string,
  clients: number,
  symbols: string[],
  startFeed: () => Promise<unknown>,
) {
  let before: S | null = null;
  const run = await withClients(url, clients, symbols, async () => {
    await startFeed();
    await sleep(3000);
    before = await ask<S>(server, 'stats', 'stats');
  });
  const after = await ask<S>(server, 'stats', 'stats');
  server.send({ cmd: 'stop' });
  await new Promise((r) => server.once('exit', r));
  const b = before!;
  const measured = {
    ...run,
    cpu: (cpuOf(after.cpu) - cpuOf(b.cpu)) / run.elapsed,
    // The kernel's share (system time: the socket writes themselves) and the process's own.
    systemCpu: (after.cpu.system - b.cpu.system) / 1e6 / run.elapsed,
    writes: after.writes - b.writes,
    sentBytes: after.bytes - b.bytes,
  };
  return { measured, before: b, after };
}

type FloorStats = { cpu: { user: number; system: number }; loop: { p50: number; p99: number; max: number }; writes: number; bytes: number };

async function runFloor(clients: number, writesPerSecond: number, bytesPerWrite: number) {
  const floor = start('ws-floor.ts');
  const { port } = await waitFor<{ port: number }>(floor, 'listening');
  const { measured, after } = await measureServer<FloorStats>(floor, `ws://127.0.0.1:${port}/`, clients, ['FLOOR'], () =>
    ask(floor, 'start', 'started', { writesPerSecond, bytesPerWrite }),
  );
  return { ...measured, loop: after.loop };
}

async function main() {
  const misses: string[] = [];
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
  for (const clients of sizes) {
    console.log(
      `\n== ${clients} clients, ${seconds} s, heartbeats ${values.pings}, ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const p = await runProduct(clients);
    const perSocketWrites = p.writes / p.connected / p.elapsed;
    const perSocketBytes = p.sentBytes / p.connected / p.elapsed;
    console.log(
      `floor: bare ws server, ${perSocketWrites.toFixed(1)} writes of ${Math.round(perSocketBytes / perSocketWrites)} bytes per socket per second`,
    );
    const f = await runFloor(clients, perSocketWrites, Math.round(perSocketBytes / perSocketWrites));
    const target = delayTarget(clients);
    const dropped = p.closed + p.dropped;
    console.log(
      [
        '',
        `clients                 ${p.connected} (DAY_MARKET + one KLINE topic each), load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
        `deliveries              ${p.deliveries} (${Math.round(p.deliveries / p.elapsed)}/s) in ${p.elapsed.toFixed(1)} s`,
        `delay tick -> client    p50 ${p.p50} ms, p99 ${p.p99} ms (target < ${target}), max ${p.max} ms`,
        `server writes           ${Math.round(p.writes / p.elapsed)}/s (${perSocketWrites.toFixed(1)} per socket per s), ${mib(p.sentBytes / p.elapsed)}/s, ${Math.round(p.frames / p.elapsed)} frames/s`,
        `floor writes            ${Math.round(f.writes / f.elapsed)}/s, ${mib(f.sentBytes / f.elapsed)}/s; received by clients: product ${mib(p.bytes / p.elapsed)}/s, floor ${mib(f.bytes / f.elapsed)}/s`,
        `server CPU              product ${pct(p.cpu)} of one core, floor ${pct(f.cpu)}: product = ${(p.cpu / f.cpu).toFixed(2)} x floor (floor = ${pct(f.cpu / p.cpu)} of product)`,
        `  of which system       product ${pct(p.systemCpu)}, floor ${pct(f.systemCpu)} (the kernel: socket reads and writes); user product ${pct(p.cpu - p.systemCpu)}, floor ${pct(f.cpu - f.systemCpu)}`,
        `send-to-client delay    floor p50 ${f.p50} ms, p99 ${f.p99} ms (bare sender, same machine, same clients)`,
        `event loop delay        product p50 ${p.loop.p50.toFixed(0)} ms, p99 ${p.loop.p99.toFixed(0)} ms (target < ${LOOP_P99_TARGET_MS}), max ${p.loop.max.toFixed(0)} ms; floor p99 ${f.loop.p99.toFixed(0)} ms`,
        `flush pass (wall)       p50 ${p.pass.p50.toFixed(1)} ms, p99 ${p.pass.p99.toFixed(1)} ms, max ${p.pass.max.toFixed(1)} ms (all clients, slices and yields)`,
        `dropped clients         ${dropped} (clients saw ${p.closed} closed, server dropped ${p.dropped}, refused ${p.refused}; target 0)`,
        `server memory           RSS ${mib(p.rss)}, peak ${mib(p.peakRss)}`,
        `client processes CPU    ${p.clientCpu.map(pct).join(', ')} of one core`,
        '',
      ].join('\n'),
    );
    if (p.p99 >= target) misses.push(`${clients} clients: tick-to-client p99 ${p.p99} ms >= ${target} ms`);
    if (p.loop.p99 >= LOOP_P99_TARGET_MS)
      misses.push(`${clients} clients: event-loop p99 ${p.loop.p99.toFixed(0)} ms >= ${LOOP_P99_TARGET_MS} ms`);
    if (dropped > 0 || p.connected < clients) misses.push(`${clients} clients: ${dropped} dropped, ${clients - p.connected} not connected`);
  }
  if (misses.length) {
    console.log(`targets missed:\n  ${misses.join('\n  ')}`);
    process.exit(1);
  }
  console.log('all targets met');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
