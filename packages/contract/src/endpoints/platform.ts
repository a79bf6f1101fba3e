import { z } from 'zod';
import { WS_PATH } from '../constants.ts';
import { endpoint } from '../endpoint.ts';

/**
 * Calls outside the `{code, msg, data}` API (`raw`): probes for a load balancer, metrics for a
 * scraper, the web app manifest and the websocket's upgrade path. Declared here so that no other
 * file names a path; their answers are plain (documented in the README's operations section).
 */
export const healthLive = endpoint({
  method: 'GET',
  path: '/health/live',
  auth: 'none',
  output: z.object({ status: z.literal('ok') }),
  summary: 'Liveness probe: the process answers',
  tags: ['operations'],
  raw: true,
});

export const healthReady = endpoint({
  method: 'GET',
  path: '/health/ready',
  auth: 'none',
  output: z.object({ status: z.string() }).loose(),
  summary: 'Readiness probe: 200 when the database, the bus and the price feed are ready, else 503 with why',
  tags: ['operations'],
  raw: true,
});

export const metrics = endpoint({
  method: 'GET',
  path: '/metrics',
  auth: 'none',
  output: z.string(),
  summary: 'Prometheus metrics (bearer METRICS_TOKEN, or on METRICS_PORT)',
  tags: ['operations'],
  raw: true,
});

export const manifest = endpoint({
  method: 'GET',
  path: '/manifest.webmanifest',
  auth: 'none',
  output: z.object({}).loose(),
  summary: 'The web app manifest, with the company name and icons',
  tags: ['operations'],
  raw: true,
});

/** The same manifest under the name older clients ask for. */
export const manifestJson = endpoint({ ...manifest, path: '/manifest.json' });

export const socket = endpoint({
  method: 'GET',
  path: WS_PATH,
  auth: 'none',
  output: z.null(),
  summary: 'The websocket (PROTOCOL.md): quotes, candles, order and account pushes',
  tags: ['realtime'],
  raw: true,
});

/** Test only (TRADING_TEST_CONTROLS=1, never in production): a browser or restart test drives prices with no feed. */
export const testTick = endpoint({
  method: 'POST',
  path: '/api/test/trading/tick',
  auth: 'none',
  input: z.object({ symbol_id: z.coerce.number().int().positive(), bid: z.string().min(1), ask: z.string().min(1) }),
  output: z.object({ accepted: z.boolean() }),
  summary: 'Test only: publishes a tick',
  tags: ['test'],
});

/** Test only: waits until every job the engine has queued has committed. */
export const testIdle = endpoint({
  method: 'GET',
  path: '/api/test/trading/idle',
  auth: 'none',
  output: z.object({
    running: z.boolean(),
    queuedUsers: z.number().int(),
    positions: z.number().int(),
    pendings: z.number().int(),
    accounts: z.number().int(),
    triggers: z.number().int(),
  }),
  summary: 'Test only: waits until every triggered job has committed',
  tags: ['test'],
});

/** The OpenAPI page generated from this table (its JSON at `${path}/json`). */
export const apiDocs = endpoint({
  method: 'GET',
  path: '/api/docs',
  auth: 'none',
  output: z.string(),
  summary: 'The OpenAPI page of every endpoint in this table',
  tags: ['operations'],
  raw: true,
});
