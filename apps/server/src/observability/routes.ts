import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { healthLive, healthReady, metrics } from '@tp/contract/endpoints/platform';
import type { AppContext } from '../context.ts';
import type { Database } from '../platform/db/client.ts';
import { feedHealthOf, fixRoutesOf, fixSessionsOf } from './feed-health.ts';
import { Health } from './health.ts';

/** Outside the API: no envelope, no rate limit, request lines below info (a load balancer polls every second). */
const PROBE = { config: { rateLimit: false }, logLevel: 'warn', schema: { hide: true } } as const;

export interface ObservabilityOptions {
  database: Pick<Database, 'usage' | 'timing'>;
  isLeader: () => boolean;
}

/** /health/live, /health/ready and /metrics (here, or on METRICS_PORT), and the series read at scrape time. */
export function registerObservability(app: FastifyInstance, ctx: AppContext, opts: ObservabilityOptions): void {
  const health = new Health(ctx, opts.isLeader);
  app.get(healthLive.path, PROBE, async () => ({ status: 'ok' }));
  const { config } = ctx;
  const authorized = bearerCheck(config.METRICS_TOKEN);
  // The report names the database kind, the migration and this server's role: for whoever may read
  // the metrics (the token; without one, only outside production). Anyone gets the status.
  const mayReadDetails = (header: string | undefined) => (config.METRICS_TOKEN ? authorized(header) : config.NODE_ENV !== 'production');
  app.get(healthReady.path, PROBE, async (req, reply) => {
    const report = await health.ready();
    return reply
      .code(report.status === 'ready' ? 200 : 503)
      .send(mayReadDetails(req.headers.authorization) ? report : { status: report.status });
  });

  collectAtScrape(ctx, opts);
  if (config.METRICS_PORT !== undefined) {
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== metrics.path) return void res.writeHead(404).end();
      if (!authorized(req.headers.authorization)) return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      ctx.metrics.text().then(
        (text) => res.writeHead(200, { 'content-type': ctx.metrics.contentType }).end(text),
        (err: unknown) => {
          ctx.log.error({ err }, 'metrics failed');
          res.writeHead(500).end();
        },
      );
    });
    app.addHook(
      'onReady',
      () => new Promise<void>((resolve, reject) => server.once('error', reject).listen(config.METRICS_PORT, config.METRICS_HOST, resolve)),
    );
    app.addHook('onClose', async () => {
      if (!server.listening) return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A scraper's kept-alive connection would otherwise hold the shutdown.
      server.closeAllConnections();
      await closed;
    });
    return notServedHere(app);
  }
  // Production without a token or a port of its own: the figures stay private.
  if (config.NODE_ENV === 'production' && !config.METRICS_TOKEN) {
    ctx.log.warn('GET /metrics is off: set METRICS_TOKEN or METRICS_PORT to turn it on');
    return notServedHere(app);
  }
  app.get(metrics.path, PROBE, async (req, reply) => {
    if (!authorized(req.headers.authorization)) return reply.code(401).header('www-authenticate', 'Bearer').send('unauthorized\n');
    return reply.type(ctx.metrics.contentType).send(await ctx.metrics.text());
  });
}

/** /metrics is not on this port: a plain 404, never the web app's page for unknown paths. */
function notServedHere(app: FastifyInstance): void {
  app.get(metrics.path, PROBE, (_req, reply) => reply.code(404).type('text/plain').send('not found\n'));
}

/** Without a token every caller is let in (development, or a port of its own). */
function bearerCheck(token: string | undefined): (header: string | undefined) => boolean {
  if (!token) return () => true;
  const expected = Buffer.from(`Bearer ${token}`);
  return (header) => {
    const given = Buffer.from(header ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
}

/** Figures other parts already keep: read when Prometheus asks, nothing added to their hot paths. */
function collectAtScrape(ctx: AppContext, opts: ObservabilityOptions): void {
  const { metrics } = ctx;
  const gateway = () => ctx.services.realtime;
  metrics.gauge('tp_ws_clients', 'Websocket clients connected to this server', [], (set) => set({}, gateway().connections.size));
  metrics.counter(
    'tp_ws_messages_sent_total',
    'Websocket frames sent (quotes coalesced per client count once)',
    () => gateway().stats.frames,
  );
  metrics.counter('tp_ws_clients_dropped_total', 'Websocket clients dropped for staying too slow', () => gateway().stats.dropped);
  metrics.counter('tp_ws_connections_refused_total', 'Websocket connections refused (per-IP limit)', () => gateway().stats.refused);
  metrics.gauge('tp_feed_tick_age_seconds', 'Age of the newest tick per symbol (open markets that have ticked)', ['symbol'], (set) => {
    for (const s of feedHealthOf(ctx))
      if (s.state !== 'closed' && s.lastTickAgeMs !== null) set({ symbol: s.code }, s.lastTickAgeMs / 1000);
  });
  metrics.gauge('tp_feed_suspect_ticks', 'Ticks the feed refused as suspect, per symbol (since start)', ['symbol'], (set) => {
    for (const s of feedHealthOf(ctx)) set({ symbol: s.code }, s.suspectTicks);
  });
  metrics.gauge('tp_feed_symbols', 'Symbols by feed state (live, stale, no_tick, closed)', ['state'], (set) => {
    const counts: Record<string, number> = { live: 0, stale: 0, no_tick: 0, closed: 0 };
    for (const s of feedHealthOf(ctx)) counts[s.state] = (counts[s.state] ?? 0) + 1;
    for (const [state, n] of Object.entries(counts)) set({ state }, n);
  });
  // PRICE_SOURCE=fix: one series per FIX session (label `session`, its FIX_CONFIG name).
  metrics.gauge('tp_fix_logged_on', 'FIX price session logged on: 1, or not: 0', ['session'], (set) => {
    for (const s of fixSessionsOf(ctx)) set({ session: s.name }, s.loggedOn ? 1 : 0);
  });
  metrics.gauge('tp_fix_last_message_age_seconds', 'Seconds since the FIX price session last received a message', ['session'], (set) => {
    const now = Date.now();
    for (const s of fixSessionsOf(ctx)) if (s.lastMessageAt !== null) set({ session: s.name }, (now - s.lastMessageAt) / 1000);
  });
  metrics.gauge('tp_fix_seq_num', 'Last FIX sequence number received (in) and sent (out), per session', ['session', 'direction'], (set) => {
    for (const s of fixSessionsOf(ctx)) {
      set({ session: s.name, direction: 'in' }, s.inSeqNum);
      set({ session: s.name, direction: 'out' }, s.outSeqNum);
    }
  });
  metrics.gauge(
    'tp_fix_gaps',
    'FIX sequence gaps seen (each answered with a resend request), per session (since start)',
    ['session'],
    (set) => {
      for (const s of fixSessionsOf(ctx)) set({ session: s.name }, s.gaps);
    },
  );
  metrics.gauge('tp_fix_reconnects', 'FIX logons after the first, per session (since start)', ['session'], (set) => {
    for (const s of fixSessionsOf(ctx)) set({ session: s.name }, s.reconnects);
  });
  metrics.gauge('tp_fix_quotes', 'Top-of-book quotes the FIX session received from its provider (since start)', ['session'], (set) => {
    for (const s of fixSessionsOf(ctx)) set({ session: s.name }, s.quotes);
  });
  metrics.gauge(
    'tp_fix_symbol_provider',
    "1 for the FIX session that feeds the symbol's bid or ask now (failover: one session; best: the bid's and the ask's)",
    ['symbol', 'session', 'side'],
    (set) => {
      for (const r of fixRoutesOf(ctx)) {
        if (r.bid !== null) set({ symbol: r.code, session: r.bid, side: 'bid' }, 1);
        if (r.ask !== null) set({ symbol: r.code, session: r.ask, side: 'ask' }, 1);
      }
    },
  );
  metrics.gauge('tp_db_connections', 'Database connections by state (PGlite: one connection)', ['state'], (set) => {
    const u = opts.database.usage();
    set({ state: 'total' }, u.total);
    set({ state: 'idle' }, u.idle);
    set({ state: 'waiting' }, u.waiting);
  });
  // Saturation = total / this, with waiting > 0: every connection is busy and queries queue for one.
  metrics.gauge('tp_db_pool_max', 'The most database connections this server opens (DATABASE_POOL_SIZE; PGlite: 1)', [], (set) =>
    set({}, ctx.dbKind === 'postgres' ? ctx.config.DATABASE_POOL_SIZE : 1),
  );
  metrics.gauge('tp_db_queries_in_flight', 'Database statements sent and not yet answered', [], (set) =>
    set({}, opts.database.usage().inFlight),
  );
  metrics.gauge('tp_leader', 'This server leads (runs the price feed and the engine): 1, or follows: 0', [], (set) =>
    set({}, opts.isLeader() ? 1 : 0),
  );
  opts.database.timing.observe = (seconds) => metrics.dbQueryDuration.observe(seconds);
}
