import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/platform/db/client.ts';
import { createScratchDatabase } from './scratch-database.ts';

export type DbTarget = 'pglite' | 'postgres';

/** The database targets API tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const dbTargets: DbTarget[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A fresh, empty database: in-memory PGlite, or a new PostgreSQL database dropped on close. */
export async function openTestDatabase(target: DbTarget): Promise<Database> {
  if (target === 'pglite') return openDatabase({});
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 't');
  const database = await openDatabase({ url: scratch.url, poolSize: 30 });
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

export interface TestApp extends App {
  database: Database;
  config: Config;
}

export async function createTestApp(
  target: DbTarget = 'pglite',
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  setup?: (app: App['app'], ctx: App['ctx']) => void,
): Promise<TestApp> {
  const database = await openTestDatabase(target);
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATA_DIR: path.join(os.tmpdir(), `tp-test-${randomBytes(4).toString('hex')}`),
      ADMIN_EMAIL: 'admin@test.local',
      ADMIN_PASSWORD: 'admin-password-1',
      RATE_LIMIT_MAX: '100000',
      // Tests about other things sign staff in with a password; the sign-in tests set the production roles.
      STAFF_TOTP_ROLES: 'none',
      PASSWORD_SCRYPT_N: '16384',
      // Suites that register many users at once would otherwise meet the production queue bound.
      PASSWORD_HASH_QUEUE: '100000',
      // Suites that fire many orders of one trader at once on a loaded machine queue on the user's
      // lock for longer than the production deadline; order-deadline.test.ts sets its own.
      ORDER_DEADLINE_MS: '60000',
      // Saves of money rules apply at once, as the suites written before four-eyes expect; its own tests turn it on.
      FOUR_EYES: 'off',
      ...env,
    },
    overrides,
  );
  const app = await buildApp({ config, database, logger: pino({ level: config.LOG_LEVEL }) });
  setup?.(app.app, app.ctx);
  await app.app.ready();
  return {
    ...app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export interface CallOptions {
  token?: string;
  lang?: string;
  /** Send the body as JSON instead of form-urlencoded. */
  json?: boolean;
}

/** Calls the API like an existing client: envelope answers, `lang` and `authorization` headers. */
export async function call<T = any>(
  app: TestApp,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  params: Record<string, unknown> = {},
  opts: CallOptions = {},
): Promise<{ status: number; code: number; msg: string; data: T }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = opts.token;
  if (opts.lang) headers.lang = opts.lang;
  let payload: string | undefined;
  let fullUrl = url;
  const entries = Object.entries(params).filter(([, v]) => v !== undefined);
  if (method === 'GET' || method === 'DELETE') {
    const qs = new URLSearchParams(entries.map(([k, v]) => [k, String(v)] as [string, string]));
    qs.set('t', String(Date.now()));
    fullUrl += (url.includes('?') ? '&' : '?') + qs.toString();
  } else if (opts.json) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(params);
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(entries.map(([k, v]) => [k, String(v)] as [string, string])).toString();
  }
  const res = await app.app.inject({ method, url: fullUrl, headers, payload });
  const body = res.json() as { code: number; msg: string; data: T };
  return { status: res.statusCode, ...body };
}
