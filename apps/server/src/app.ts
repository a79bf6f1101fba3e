import { apiDocs } from '@tp/contract/endpoints/platform';
import { buildOpenApiDocument } from '@tp/contract/openapi';
import fs from 'node:fs';
import path from 'node:path';
import { constants as zlib } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import compress from '@fastify/compress';
import swagger, { type StaticDocumentSpec } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import type { Logger } from 'pino';
import { Code } from '@tp/contract/codes';
import { MAX_UPLOAD_BYTES } from '@tp/contract/constants';
import { HTTP_STATUS_HEADER, standardStatusOf } from '@tp/contract/http-status';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { AppError, isDataException } from './http/errors.ts';
import { registerRequestLog } from './http/request-log.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { t } from './http/i18n.ts';
import { langOf } from './http/route.ts';
import { wantsStandardStatus } from './http/status-mode.ts';
import { claimedKeyId, keepSignedBodies } from './http/api-key-credentials.ts';
import { clientKey } from './http/client-key.ts';
import { MemoryBus, type Bus } from './platform/bus.ts';
import { type Database, isConnectionLost, openDatabase } from './platform/db/client.ts';
import { seedDatabase } from './platform/db/seed.ts';
import { BackgroundRunner, createSharedPlatform, journalLimits } from './platform/cluster.ts';
import { MemoryPushJournal } from './platform/push-journal.ts';
import { createLogger } from './platform/logger.ts';
import { modules } from './modules/index.ts';
import { observeHttp } from './observability/http-metrics.ts';
import { Metrics } from './observability/metrics.ts';
import { registerObservability } from './observability/routes.ts';
import { PUBLIC_DIR } from './paths.ts';

export interface BuildOptions {
  config: Config;
  /** An already open database (tests share one per file); opened from config otherwise. */
  database?: Database;
  bus?: Bus;
  logger?: Logger;
  /** Seed reference data at start (default true). */
  seed?: boolean;
}

export interface App {
  app: FastifyInstance;
  ctx: AppContext;
  database: Database;
  /** Starts background work (price feed, engine) once the routes are ready. */
  startBackground(): Promise<void>;
  close(): Promise<void>;
}

const API_PREFIXES = ['/api/', '/v1/'];

/** A path as a hostile client may spell an API call (percent-encoded, any case, doubled slashes): compared to the API prefixes so it never gets the web app. */
const looksLikeApi = (url: string): boolean => {
  let path = url;
  try {
    path = decodeURIComponent(url);
  } catch {
    // A malformed escape stays as typed.
  }
  path = path
    .toLowerCase()
    .replace(/[\\/]+/g, '/')
    .replace(/\/\.(?=\/|$)/g, '');
  return API_PREFIXES.some((p) => path.startsWith(p) || `${path}/` === p);
};
const CLIENT_ABORT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);
const isClientAbort = (err: Error & { code?: string }, raw: { socket?: { destroyed: boolean } | null }) =>
  raw.socket?.destroyed === true || CLIENT_ABORT_CODES.has(err.code ?? '') || err.message === 'aborted';

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The service worker and the files it precaches: revalidated on every fetch, never kept stale. */
const SERVICE_WORKER_FILES = /[\\/](sw\.js|offline\.html|offline\.js)$/;

export async function buildApp(opts: BuildOptions): Promise<App> {
  const { config } = opts;
  const log = opts.logger ?? createLogger(config);
  const database =
    opts.database ??
    (await openDatabase({
      url: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolSize: config.DATABASE_POOL_SIZE,
      migrate: config.MIGRATE_ON_START ? 'apply' : 'check',
    }));
  const ownsDatabase = !opts.database;
  // Several servers: Redis bus, throttles and rate limits when REDIS_URL is set; STORAGE_DRIVER's storage.
  const shared = createSharedPlatform(config, log);
  const bus = opts.bus ?? shared.bus ?? new MemoryBus();

  const fastifyOpts: FastifyServerOptions = {
    loggerInstance: log,
    // Fastify's own two lines per request at info are replaced by registerRequestLog's one at debug.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    requestIdHeader: 'x-request-id',
    // A hop count trusts that many proxies nearest to the server (Fastify's own typing lacks the number form).
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  };
  const app = Fastify(fastifyOpts) as unknown as FastifyInstance;
  // Inputs are validated by the zod schemas inside each route (to answer in the envelope); the JSON
  // schemas given to Fastify only document the calls on the OpenAPI page.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  const metrics = new Metrics();
  observeHttp(app, metrics);

  const storage = shared.storage;
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    transactionWith: database.transactionWith,
    log,
    bus,
    pushJournal: shared.pushJournal ?? new MemoryPushJournal(journalLimits(config)),
    storage,
    services: {} as AppContext['services'],
    metrics,
    clustered: Boolean(config.DATABASE_URL && database.kind === 'postgres'),
    background: [],
  };

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        // The installable app: its service worker (/sw.js) and web manifest, from this origin only.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  const origins = config.CORS_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  // JSON answers over 1 KB go brotli (fast level) or gzip to clients that accept it; static build files
  // already carry their content-encoding (precompressed .br/.gz) and are sent as they are.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
  registerRequestLog(app, config.SLOW_REQUEST_MS);
  await app.register(cors, {
    origin: origins.includes('*') ? true : origins.length ? origins : false,
    allowedHeaders: [
      'content-type',
      'lang',
      'authorization',
      'x-request-id',
      'x-api-key',
      'x-api-timestamp',
      'x-api-signature',
      HTTP_STATUS_HEADER.toLowerCase(),
    ],
    // A browser client in the standard status mode reads how long to wait after a 429.
    exposedHeaders: ['retry-after'],
  });
  keepSignedBodies(app, MAX_UPLOAD_BYTES + 64 * 1024);
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20 } });
  await app.register(rateLimit, {
    global: true,
    timeWindow: 60_000,
    // The router has decoded the path (`/%61pi/...` reaches `/api/...`): the limit decides on the route
    // it matched, never on the raw text the client typed.
    allowList: (req) => !API_PREFIXES.some((p) => (req.routeOptions.url ?? '').startsWith(p)),
    // A call made with an API key counts against that key (API_KEY_RATE_LIMIT), wherever it comes from.
    keyGenerator: (req) => {
      const keyId = claimedKeyId(req.headers);
      return keyId ? `api-key:${keyId}` : clientKey(req.ip);
    },
    max: (_req, key) => (key.startsWith('api-key:') ? config.API_KEY_RATE_LIMIT : config.RATE_LIMIT_MAX),
    ...shared.rateLimitStore,
  });
  // The document is built from the endpoint table (docs/openapi.json is the same, written by npm run docs:openapi).
  await app.register(swagger, {
    mode: 'static',
    specification: {
      document: buildOpenApiDocument({
        includeTest: config.TRADING_TEST_CONTROLS && config.NODE_ENV !== 'production',
      }) as unknown as StaticDocumentSpec['document'],
    },
  });
  await app.register(swaggerUi, { routePrefix: apiDocs.path, staticCSP: true });
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    // An oversized or malformed frame is the client's doing: a warning, and the socket is cut.
    errorHandler: (err, socket, req) => {
      req.log.warn({ err: { message: err.message, code: (err as Error & { code?: string }).code }, ip: req.ip }, 'socket client error');
      socket.terminate();
    },
  });

  const assetsDir = path.join(config.webDist, 'assets');
  if (fs.existsSync(assetsDir)) {
    // Hashed build files: sent as the .br or .gz the web build wrote next to them, cached for good.
    await app.register(fastifyStatic, {
      root: assetsDir,
      prefix: '/assets/',
      wildcard: true,
      index: false,
      decorateReply: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders(res) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  const staticRoots = [config.webDist, PUBLIC_DIR].filter((d) => fs.existsSync(d));
  if (staticRoots.length) {
    await app.register(fastifyStatic, {
      root: staticRoots,
      wildcard: true,
      index: false,
      cacheControl: false,
      setHeaders(res, file) {
        // A new service worker (and the offline page it keeps) must reach browsers on their next visit.
        res.setHeader('cache-control', SERVICE_WORKER_FILES.test(file) ? 'no-cache' : 'public, max-age=300');
      },
    });
  }
  const indexHtml = path.join(config.webDist, 'index.html');
  const sendIndex = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html').send(fs.createReadStream(indexHtml));
  app.get('/', { schema: { hide: true } }, (req, reply) => {
    if (!fs.existsSync(indexHtml))
      return reply.code(404).send({ code: Code.NOT_FOUND, msg: t(langOf(req), 'route_not_found'), data: null });
    return sendIndex(reply);
  });

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    const lang = langOf(req);
    const standard = wantsStandardStatus(req);
    if (err instanceof AppError) {
      const status = standard ? standardStatusOf(err.code, err.key) : 200;
      if (status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
      // A 401 names the schemes that would be accepted (RFC 9110): a session token, or an API key.
      if (status === 401) reply.header('www-authenticate', 'Bearer, ApiKey');
      return reply.code(status).send({ code: err.code, msg: t(lang, err.key, err.params), data: err.data });
    }
    if (err.statusCode === 429) {
      // The rate limiter has set retry-after (seconds until its window resets).
      return reply.code(standard ? 429 : 200).send({ code: Code.RATE_LIMITED, msg: t(lang, 'too_many_requests'), data: null });
    }
    if ((err.statusCode && err.statusCode < 500) || isDataException(err)) {
      req.log.info({ err: { message: err.message, code: err.code } }, 'bad request');
      // Fastify's own refusal (malformed JSON 400, too large 413, unknown type 415) keeps its status; a value the database refused is 422.
      const status = standard ? (err.statusCode ?? standardStatusOf(Code.INVALID_PARAM)) : 200;
      return reply.code(status).send({ code: Code.INVALID_PARAM, msg: t(lang, 'invalid_request'), data: null });
    }
    if (isConnectionLost(err)) {
      // The transaction rolled back with its connection: nothing was written, the client may retry.
      req.log.warn(
        { err: { message: err.message, code: err.code }, path: req.url.split('?')[0] },
        'request failed: database connection lost',
      );
      return reply
        .code(503)
        .header('retry-after', '1')
        .send({ code: 500, msg: t(lang, 'service_unavailable'), data: null });
    }
    // A client that went away mid-request is no server fault: logged below error, nobody is answered.
    if (isClientAbort(err, req.raw)) {
      req.log.info({ err: { message: err.message, code: err.code }, path: req.url.split('?')[0] }, 'client aborted the request');
      return reply;
    }
    req.log.error({ err, path: req.url.split('?')[0] }, 'request failed');
    return reply.code(500).send({ code: 500, msg: t(lang, 'server_error'), data: null });
  });

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0]!;
    if (looksLikeApi(url) || req.method !== 'GET' || !fs.existsSync(indexHtml)) {
      return reply.code(404).send({ code: Code.NOT_FOUND, msg: t(langOf(req), 'route_not_found'), data: null });
    }
    // Client-side routes of the single-page app.
    return sendIndex(reply);
  });

  if (opts.seed !== false) await seedDatabase(ctx.db, log, config);
  for (const mod of modules) await mod.register(app, ctx);
  if (shared.throttle) ctx.services.throttle = shared.throttle;
  const background = new BackgroundRunner(ctx);
  registerObservability(app, ctx, { database, isLeader: () => background.isLeader });

  let started = false;
  return {
    app,
    ctx,
    database,
    async startBackground() {
      if (started) return;
      started = true;
      await background.start();
    },
    async close() {
      await background.stop();
      await app.close();
      await bus.close();
      await shared.close();
      if (ownsDatabase) await database.close();
    },
  };
}
