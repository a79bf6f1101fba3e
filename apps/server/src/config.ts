import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** Every setting comes from the environment; this schema is the configuration table of the README. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  REDIS_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ADMIN_EMAIL: z.string().email().default('admin@localhost.localdomain'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  CORS_ORIGINS: z.string().default(''),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(720),
  STAFF_SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
  PRICE_SOURCE: z.enum(['simulator', 'replay', 'external']).default('simulator'),
  PRICE_SEED: z.coerce.number().int().default(42),
  PRICE_TICK_MULTIPLIER: z.coerce.number().positive().default(1),
  REPLAY_FILE: z.string().optional(),
  FEED_URL: z.string().url().optional(),
  FEED_SYMBOL_MAP: z.string().optional(),
  FEED_STALE_MS: z.coerce.number().int().positive().default(10_000),
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default('no-reply@localhost.localdomain'),
  SMS_URL: z.string().url().optional(),
  SMS_KEY: z.string().optional(),
  DEMO_INITIAL_BALANCE: z.string().regex(/^\d+(\.\d+)?$/).default('100000'),
  STORAGE_DIR: z.string().optional(),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: bool.default(false),
});

export type Config = z.infer<typeof EnvSchema> & { storageDir: string; webDist: string };

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration in environment variables:\n${lines.join('\n')}`);
  }
  const base = parsed.data;
  const repoRoot = path.resolve(import.meta.dirname, '../../..');
  const merged = { ...base, ...overrides };
  return {
    ...merged,
    storageDir: overrides.storageDir ?? base.STORAGE_DIR ?? path.join(merged.DATA_DIR, 'uploads'),
    webDist: overrides.webDist ?? base.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'),
  };
}
