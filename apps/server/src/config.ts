import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { STAFF_TOTP_ROLES_DEFAULT } from '@tp/contract/schemas/admin';
import { z } from 'zod';
import { type FixConfig, readFixConfig } from './fix-config.ts';
import { REPO_ROOT } from './paths.ts';

const bool = z.enum(['1', '0', 'true', 'false', 'yes', 'no']).transform((v) => v === '1' || v === 'true' || v === 'yes');

/**
 * Behind a reverse proxy: `true` trusts every X-Forwarded-For hop, a number that many hops (one
 * proxy in front: 1), or a comma-separated list of the proxies' addresses and CIDR ranges.
 */
const trustProxy = z.string().transform((v, ctx): boolean | number | string[] => {
  const s = v.trim().toLowerCase();
  if (['true', 'yes'].includes(s)) return true;
  if (['false', 'no', '0'].includes(s)) return false;
  if (/^\d+$/.test(s)) return Number(s);
  const entries = s
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => {
    const [ip, bits, ...more] = e.split('/');
    const family = net.isIP(ip ?? '');
    if (!family || more.length) return true;
    return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  });
  if (!entries.length || bad.length) {
    ctx.addIssue({
      code: 'custom',
      message: `true, false, a hop count or a list of addresses/CIDR ranges (not ${bad.join(', ') || 'empty'})`,
    });
    return z.NEVER;
  }
  return entries;
});

/** Secrets that may also come from a file (`<NAME>_FILE`, e.g. a mounted Docker or Kubernetes secret). */
export const FILE_SECRETS = [
  'DATABASE_URL',
  'REDIS_URL',
  'ADMIN_PASSWORD',
  'SMTP_URL',
  'SMS_KEY',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'METRICS_TOKEN',
  'API_KEY_SECRET',
] as const;

/** Every setting comes from the environment; this schema is the configuration table of the README. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  REDIS_URL: z.string().url().optional(),
  /** Several servers: prefix of Redis channels and keys (one Redis can serve several deployments); leader election retry. */
  REDIS_PREFIX: z.string().default('tp:'),
  LEADER_RETRY_MS: z.coerce.number().int().min(100).max(10_000).default(1000),
  /** The leader's lease: a paused or cut-off leader is replaced this long after its last renewal. */
  LEADER_LEASE_MS: z.coerce.number().int().min(200).max(60_000).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Requests slower than this are logged at warn (the others at debug). */
  SLOW_REQUEST_MS: z.coerce.number().int().positive().default(1000),
  /** A trader's order or close that reaches its money transaction later than this after the server received it is refused (not executed late). */
  ORDER_DEADLINE_MS: z.coerce.number().int().positive().default(5000),
  ADMIN_EMAIL: z.string().email().default('admin@localhost.localdomain'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  CORS_ORIGINS: z.string().default(''),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(720),
  STAFF_SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  /** scrypt's N for password hashes; honoured only with NODE_ENV=test, to keep the suite fast (production: 2^17). */
  PASSWORD_SCRYPT_N: z.coerce.number().int().min(1024).optional(),
  /** Staff roles that must sign in with TOTP (comma-separated, or `none`); set up at their first sign-in. */
  STAFF_TOTP_ROLES: z.string().default(STAFF_TOTP_ROLES_DEFAULT),
  /**
   * Four-eyes changes to money rules: `on`, a save of symbol terms, fees or the margin-call and stop-out
   * levels is a proposal that takes effect when a second risk or admin member approves it; `off`, saves apply at once.
   */
  FOUR_EYES: z.enum(['on', 'off']).default('on'),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
  /** Requests per minute of one API key (all its servers together when Redis is configured). */
  API_KEY_RATE_LIMIT: z.coerce.number().int().positive().default(300),
  /**
   * Master secret the signing secrets of API keys are derived from (at least 32 characters). Unset, a
   * random one is made once and kept in the database; set it so a copy of the database alone cannot sign.
   */
  API_KEY_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  PRICE_SOURCE: z.enum(['simulator', 'replay', 'external', 'fix']).default('simulator'),
  PRICE_SEED: z.coerce.number().int().default(42),
  PRICE_TICK_MULTIPLIER: z.coerce.number().positive().default(1),
  REPLAY_FILE: z.string().optional(),
  FEED_URL: z.string().url().optional(),
  FEED_SYMBOL_MAP: z.string().optional(),
  /** PRICE_SOURCE=fix: the JSON file of FIX 4.4 sessions (docs/fix.md), checked at start. */
  FIX_CONFIG: z.string().optional(),
  /** A symbol whose newest tick is older than this is stale (external feed reconnect; /health/ready). */
  FEED_STALE_MS: z.coerce.number().int().positive().default(10_000),
  /** Several servers: a follower that has heard neither a tick nor the leader's heartbeat for this long refuses to trade. */
  FEED_SILENCE_MS: z.coerce.number().int().positive().default(5_000),
  /** Ticks per second of every simulated symbol, instead of each symbol's own rate (benchmarks). */
  PRICE_TICK_RATE: z.coerce.number().positive().max(1000).optional(),
  /** Market: candle bars generated per period on the first start; candle flush interval; opens every market (benchmarks). */
  HISTORY_BARS: z.coerce.number().int().min(0).max(5000).default(500),
  CANDLE_FLUSH_MS: z.coerce.number().int().positive().default(1000),
  MARKET_ALWAYS_OPEN: bool.default(false),
  /**
   * Live socket: the longest wait between quote flush passes under load (a quiet gateway flushes
   * within a few ms), subscription and per-IP connection limits, slow-client buffer limit.
   */
  WS_FLUSH_MS: z.coerce.number().int().min(5).max(1000).default(100),
  WS_MAX_SUBSCRIPTIONS: z.coerce.number().int().positive().default(100),
  WS_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().positive().default(50),
  WS_MAX_BUFFERED_BYTES: z.coerce.number().int().positive().default(1_048_576),
  /** How long a client's send buffer may stay above WS_MAX_BUFFERED_BYTES before it is dropped. */
  WS_SLOW_CLIENT_MS: z.coerce.number().int().positive().default(5000),
  /**
   * Live socket budgets per connection: messages per second (bursts of twice as many), messages
   * waiting to be handled, failed logins; a client over any of them is closed (1008).
   */
  WS_MAX_MESSAGES_PER_SECOND: z.coerce.number().int().positive().default(20),
  WS_MAX_QUEUED_MESSAGES: z.coerce.number().int().positive().default(32),
  WS_MAX_FAILED_LOGINS: z.coerce.number().int().positive().default(5),
  /** Replay on reconnect: how long a user's NOTICE and FOREX_CLOSED pushes are kept, and at most how many. */
  WS_REPLAY_WINDOW_MS: z.coerce.number().int().positive().default(300_000),
  WS_REPLAY_MAX_ENTRIES: z.coerce.number().int().positive().max(1000).default(100),
  /**
   * Password hashes (scrypt, 128 MiB each) computed at once on this server, and how many more may
   * wait for a turn; a request beyond both is refused with the rate-limit code.
   */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().positive().default(4),
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).default(32),
  /** Failed staff sign-ins from one address (any e-mail, known or not) per 15 minutes. */
  STAFF_LOGIN_FAILURES_PER_IP: z.coerce.number().int().positive().default(20),
  /** Price alerts one account may hold; alert e-mails one account may receive per day. */
  MAX_PRICE_ALERTS: z.coerce.number().int().positive().default(50),
  MAX_ALERT_EMAILS_PER_DAY: z.coerce.number().int().positive().default(100),
  /**
   * Web Push: the contact the push services are given with each message (a mailto: or https: URL;
   * default: SMTP_FROM), devices per account, messages sent at once, and (tests and development only,
   * never in production) origins allowed as push endpoints besides https ones, e.g. http://127.0.0.1.
   */
  WEB_PUSH_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'a mailto: or https: URL')
    .optional(),
  WEB_PUSH_MAX_DEVICES: z.coerce.number().int().positive().max(100).default(10),
  WEB_PUSH_CONCURRENCY: z.coerce.number().int().positive().max(64).default(4),
  WEB_PUSH_TEST_ORIGINS: z.string().default(''),
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default('no-reply@localhost.localdomain'),
  SMS_URL: z.string().url().optional(),
  SMS_KEY: z.string().optional(),
  DEMO_INITIAL_BALANCE: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .default('100000'),
  /** Trading: demo accounts one IP may create per minute; test-only calls that push ticks (never in production). */
  DEMO_CREATE_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  TRADING_TEST_CONTROLS: bool.default(false),
  /** Tests only (with TRADING_TEST_CONTROLS, never in production): this server's change notifications are lost, as in a bus outage. */
  TRADING_TEST_LOSE_CHANGE_NOTICES: bool.default(false),
  /**
   * Checks every answer against its endpoint's output schema, strictly (an undeclared field or a missing
   * one is a 500 naming the field). Default: on with NODE_ENV=test, off otherwise (the serializer still
   * drops undeclared fields there).
   */
  CHECK_RESPONSES: bool.optional(),
  STORAGE_DIR: z.string().optional(),
  /** Uploads: a directory every server mounts (local, default) or an S3-compatible bucket (s3). */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY: z.string().optional(),
  S3_SECRET_KEY: z.string().optional(),
  S3_PATH_STYLE: bool.default(true),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: trustProxy.default(false),
  /**
   * Apply pending migrations at start (under a lock), or only check that they are applied and refuse
   * an older schema (when a separate `npm run migrate` step owns the schema, as in the image).
   */
  MIGRATE_ON_START: bool.default(true),
  /** How long a graceful stop (SIGTERM) may take before the process exits non-zero; keep it below the orchestrator's grace period. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  /** GET /metrics: asks for `Authorization: Bearer METRICS_TOKEN`, or is served only on METRICS_HOST:METRICS_PORT. */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

export type Config = z.infer<typeof EnvSchema> & { storageDir: string; webDist: string; fix: FixConfig | null };

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string>;
  const fileErrors: string[] = [];
  for (const key of FILE_SECRETS) {
    const file = cleaned[`${key}_FILE`];
    delete cleaned[`${key}_FILE`];
    if (file === undefined) continue;
    if (cleaned[key] !== undefined) {
      fileErrors.push(`  ${key} and ${key}_FILE: set one, not both`);
      continue;
    }
    try {
      // A secret file usually ends with a newline that is no part of the secret.
      cleaned[key] = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      fileErrors.push(`  ${key}_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  if (fileErrors.length) throw new ConfigError(`Invalid configuration in environment variables:\n${fileErrors.join('\n')}`);
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration in environment variables:\n${lines.join('\n')}`);
  }
  const base = parsed.data;
  if (base.STORAGE_DRIVER === 's3') {
    const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const).filter((k) => !base[k]);
    if (missing.length)
      throw new ConfigError(`Invalid configuration in environment variables:\n  STORAGE_DRIVER=s3 needs ${missing.join(', ')}`);
  }
  if (base.METRICS_PORT !== undefined && base.METRICS_PORT === base.PORT)
    throw new ConfigError(`Invalid configuration in environment variables:\n  METRICS_PORT must differ from PORT (${base.PORT})`);
  let fix: FixConfig | null = null;
  if (base.PRICE_SOURCE === 'fix') {
    if (!base.FIX_CONFIG) throw new ConfigError('Invalid configuration in environment variables:\n  PRICE_SOURCE=fix needs FIX_CONFIG');
    try {
      fix = readFixConfig(base.FIX_CONFIG);
    } catch (err) {
      throw new ConfigError(`Invalid configuration in the FIX_CONFIG file:\n${(err as Error).message}`);
    }
  }
  const merged = { ...base, fix, ...overrides };
  return {
    ...merged,
    storageDir: overrides.storageDir ?? base.STORAGE_DIR ?? path.join(merged.DATA_DIR, 'uploads'),
    webDist: overrides.webDist ?? base.WEB_DIST ?? path.join(REPO_ROOT, 'apps/web/dist'),
  };
}
