/**
 * The server side of `npm run bench:ws`, run as a child process so the clients' work does not
 * count against it. Reports its port, then its gateway counters, CPU time and memory on request.
 */
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/platform/db/client.ts';
import { loopDelayMonitor } from './loop-delay.ts';

const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  DATA_DIR: path.join(os.tmpdir(), `tp-bench-ws-${process.pid}`),
  PRICE_SOURCE: 'simulator',
  HISTORY_BARS: '0',
  MARKET_ALWAYS_OPEN: '1',
  WS_MAX_CONNECTIONS_PER_IP: '1000000',
  ADMIN_PASSWORD: 'bench-password-1',
});
// The embedded database by default (its memory counts in the figures); DATABASE_URL for PostgreSQL.
const database = await openDatabase({ url: config.DATABASE_URL });
const server = await buildApp({ config, database });
await server.app.listen({ port: 0, host: '127.0.0.1' });
const port = (server.app.server.address() as { port: number }).port;
const gateway = server.ctx.services.realtime;
let peakRss = 0;
const loopDelay = loopDelayMonitor(10);
// Wall time of each flush pass of the gateway over all clients (its slices and the yields between them).
const passes: number[] = [];
gateway.flusher.onPass = (ms) => passes.push(ms);
setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 250).unref();

process.on('message', async (msg: { cmd: string }) => {
  if (msg.cmd === 'start-feed') {
    await server.startBackground();
    loopDelay.enable();
    process.send!({ event: 'feed-started' });
  } else if (msg.cmd === 'stats') {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const loop = loopDelay.read();
    const sorted = passes.splice(0).sort((a, b) => a - b);
    const pass = {
      p50: sorted[Math.floor(sorted.length * 0.5)] ?? 0,
      p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
      max: sorted.at(-1) ?? 0,
    };
    process.send!({
      event: 'stats',
      pass,
      loop,
      cpu: process.cpuUsage(),
      rss: process.memoryUsage().rss,
      peakRss,
      connections: gateway.connections.size,
      ...gateway.stats,
    });
  } else if (msg.cmd === 'stop') {
    await server.close();
    await database.close();
    process.exit(0);
  }
});
process.send!({ event: 'listening', port, symbols: server.ctx.services.market.symbols().map((s) => s.code) });
