/**
 * `npm run bench:fix`: bench:engine's tick path fed through the FIX source (PRICE_SOURCE=fix,
 * docs/fix.md). The server (PGlite in memory, trading engine, websocket gateway) takes its prices
 * from a FIX 4.4 simulator in another process (bench/fix-provider.ts) over a real session on
 * 127.0.0.1, and one websocket client subscribed to DAY_MARKET receives the pushes.
 *  1. Latency: the provider sends BENCH_FIX_RATE quotes/s (default 1,000) for BENCH_FIX_SECONDS
 *     (default 5) round 30 symbols; per quote, the time from the provider's SendingTime (the entry
 *     time it stamps) to the market's tick listeners (the engine's tick path), and to the client's
 *     receipt of the push (p50/p99/max).
 *  2. Throughput: the provider sends as fast as it can for BENCH_FIX_FLOOD_SECONDS (default 3): the
 *     quotes the server took per second, the server's CPU time meanwhile, and the quotes per second
 *     one core sustains (quotes taken / CPU seconds used; the provider's own CPU is in its process).
 * Figures only, no targets: a shared machine gives noisy numbers; run it short.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/platform/db/client.ts';
import { symbols as symbolsTable } from '../apps/server/src/platform/db/schema.ts';

const RATE = Number(process.env.BENCH_FIX_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_FIX_SECONDS ?? 5);
const FLOOD_SECONDS = Number(process.env.BENCH_FIX_FLOOD_SECONDS ?? 3);

const log = (line: string) => process.stdout.write(`${line}\n`);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${pct(s, 50)} ms, p99 ${pct(s, 99)} ms, max ${s.at(-1) ?? NaN} ms (${s.length.toLocaleString('en')} quotes)`;
};

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fix-'));
  const file = path.join(dir, 'fix.json');
  // Every visible symbol of the seed data, under its own code at the provider: written after the database knows them.
  const database = await openDatabase({});
  const base = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: path.join(dir, 'data'),
    MARKET_ALWAYS_OPEN: '1',
    HISTORY_BARS: '0',
    ADMIN_PASSWORD: 'bench-password-1',
  };
  const probe = await buildApp({ config: loadConfig(base), logger: pino({ level: 'warn' }), database });
  const codes = probe.ctx.services.market
    .symbols()
    .filter((s) => s.visible && s.tradable)
    .slice(0, 30)
    .map((s) => s.code);
  await probe.app.close();
  const session = {
    name: 'bench',
    host: '127.0.0.1',
    port: await freePort(),
    senderCompId: 'TP',
    targetCompId: 'LP',
    heartbeatSeconds: 30,
    resetOnLogon: true,
    tls: false,
    reconnectSeconds: 0.2,
    symbols: Object.fromEntries(codes.map((c) => [c, c])),
  };
  fs.writeFileSync(file, JSON.stringify({ sessions: [session] }));

  const provider = fork(path.resolve(import.meta.dirname, 'fix-provider.ts'), [], {
    env: { ...process.env, BENCH_FIX_CONFIG: file },
    execArgv: ['--import', 'tsx'],
  });
  const next = <T>(event: string) =>
    new Promise<T>((resolve) => {
      const on = (msg: { event: string } & T) => {
        if (msg.event !== event) return;
        provider.off('message', on);
        resolve(msg);
      };
      provider.on('message', on);
    });
  await next('listening');

  const server = await buildApp({
    config: loadConfig({ ...base, PRICE_SOURCE: 'fix', FIX_CONFIG: file }),
    logger: pino({ level: process.env.BENCH_LOG_LEVEL ?? 'warn' }),
    database,
  });
  const { ctx } = server;
  const market = ctx.services.market;
  await ctx.db.update(symbolsTable).set({ maxQuoteAgeSec: 3600 });
  await market.reloadSymbols();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  await server.startBackground();
  const source = ctx.services.priceSource;
  const deadline = Date.now() + 20_000;
  while (!source.sessions?.()[0]?.loggedOn) {
    if (Date.now() > deadline) throw new Error(`the FIX session did not log on: ${JSON.stringify(source.sessions?.())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  log(`FIX session logged on; ${codes.length} symbols; engine ${JSON.stringify(ctx.services.trading.engine.stats())}`);

  // What each tick the listeners saw was priced at, by symbol and tick time (what the push carries).
  const sourceTimes = new Map<string, number>();
  const toListeners: number[] = [];
  let measuring = false;
  market.onTick((tick) => {
    if (!measuring || tick.sourceTime === undefined) return;
    toListeners.push(Date.now() - tick.sourceTime);
    sourceTimes.set(`${tick.code}|${tick.time}`, tick.sourceTime);
  });
  const address = server.app.server.address() as net.AddressInfo;
  const ws = new WebSocket(`ws://127.0.0.1:${address.port}/v1/ws`);
  const toClient: number[] = [];
  ws.onmessage = (event) => {
    if (!measuring) return;
    const msg = JSON.parse(String(event.data)) as { type?: string; symbol?: string; time?: number };
    if (msg.type !== 'DAY_MARKET') return;
    const at = sourceTimes.get(`${msg.symbol}|${msg.time}`);
    if (at !== undefined) toClient.push(Date.now() - at);
  };
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error('websocket failed'));
  });
  ws.send(JSON.stringify({ type: 'sub', params: 'DAY_MARKET' }));
  await new Promise((r) => setTimeout(r, 300));

  // 1. Latency at a steady rate.
  measuring = true;
  provider.send({ rate: RATE, seconds: SECONDS });
  const { sent } = await next<{ sent: number }>('done');
  await new Promise((r) => setTimeout(r, 300));
  measuring = false;
  log(`latency at ${RATE.toLocaleString('en')} quotes/s for ${SECONDS} s (${sent.toLocaleString('en')} sent):`);
  log(`  provider SendingTime -> tick listeners (engine): ${summary(toListeners)}`);
  log(`  provider SendingTime -> client push received:    ${summary(toClient)}`);

  // 2. Throughput: the provider floods; the server's quotes taken and CPU time.
  const quotesBefore = source.sessions!()[0]!.quotes;
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  provider.send({ rate: 0, seconds: FLOOD_SECONDS });
  const flood = await next<{ sent: number }>('done');
  // Until the server has taken what was sent (or a few seconds).
  const drainBy = Date.now() + 5000;
  while (source.sessions!()[0]!.quotes - quotesBefore < flood.sent && Date.now() < drainBy) await new Promise((r) => setTimeout(r, 20));
  const wall = (performance.now() - wallBefore) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const taken = source.sessions!()[0]!.quotes - quotesBefore;
  log(
    `throughput, provider flooding for ${FLOOD_SECONDS} s (${flood.sent.toLocaleString('en')} sent, ${taken.toLocaleString('en')} taken):`,
  );
  log(
    `  ${Math.round(taken / wall).toLocaleString('en')} quotes/s taken over ${wall.toFixed(2)} s, server CPU ${Math.round((cpuSeconds / wall) * 100)}% of one core`,
  );
  log(`  ${Math.round(taken / cpuSeconds).toLocaleString('en')} quotes/s per core (quotes taken / server CPU seconds)`);

  ws.close();
  provider.send('stop');
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
