/**
 * Several real servers (child processes) on one fresh PostgreSQL database and one Redis, for the
 * cluster test and the cluster benchmark.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './trading/server-process.ts';
import { createScratchDatabase } from './scratch-database.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');

export interface ClusterServer {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export interface Cluster {
  servers: ClusterServer[];
  databaseUrl: string;
  redisPrefix: string;
  /** The shared directory (DATA_DIR, uploads) every server uses. */
  dir: string;
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** The port of the server holding the leader lock, or null while nobody does. */
  leaderPort(): Promise<number | null>;
  /** Starts one more server; `main` runs another build of it (a newer version, for upgrade tests). */
  start(env?: Record<string, string>, main?: string): Promise<ClusterServer>;
  /** The environment every server gets (database, Redis, shared directory). */
  env: Record<string, string>;
  close(): Promise<void>;
}

const createDatabase = (base: string) => createScratchDatabase(base, 't_cluster');

async function startServer(env: Record<string, string>, timeoutMs: number, main = MAIN): Promise<ClusterServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/v1/api/forex/trade_list`);
      if (res.ok && ((await res.json()) as { code: number }).code === 1) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, child, output: () => out, exited };
}

/**
 * Starts `count` servers one after the other (the first applies the migrations and the seed),
 * on a new database that is dropped on close, with a Redis prefix of their own.
 */
export async function startCluster(count: number, env: Record<string, string> = {}, timeoutMs = 120_000): Promise<Cluster> {
  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!base || !redisUrl) throw new Error('a cluster needs TEST_DATABASE_URL (or DATABASE_URL) and REDIS_URL');
  const db = await createDatabase(base);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-cluster-'));
  const shared: Record<string, string> = {
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `test:${randomBytes(4).toString('hex')}:`,
    DATA_DIR: dir,
    ADMIN_PASSWORD: 'admin-password-1',
    RATE_LIMIT_MAX: '1000000',
    PASSWORD_SCRYPT_N: '16384',
    // Traders looping orders against servers on a loaded test machine queue past the production deadline.
    ORDER_DEADLINE_MS: '60000',
    // Saves of money rules apply at once, as the suites written before four-eyes expect.
    FOUR_EYES: 'off',
    ...env,
  };
  // A pool, not one client: a connection PostgreSQL drops (a restart, in the fault suite) is replaced,
  // and its error is not an uncaught one.
  const admin = new pg.Pool({ connectionString: db.url, max: 2 });
  admin.on('error', () => undefined);
  const servers: ClusterServer[] = [];
  const cluster: Cluster = {
    servers,
    databaseUrl: db.url,
    redisPrefix: shared.REDIS_PREFIX!,
    dir,
    async query<T>(text: string, params: unknown[] = []) {
      return (await admin.query(text, params)).rows as T[];
    },
    async leaderPort() {
      const rows = await cluster.query<{ name: string }>(
        `select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where l.locktype = 'advisory' and l.granted and l.database = (select oid from pg_database where datname = current_database())`,
      );
      const match = rows.map((r) => /:(\d+) pid/.exec(r.name)).find(Boolean);
      return match ? Number(match[1]) : null;
    },
    env: shared,
    async start(extra = {}, main?: string) {
      const server = await startServer({ ...shared, ...extra }, timeoutMs, main);
      servers.push(server);
      return server;
    },
    async close() {
      for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
      await Promise.all(
        servers.map((s) =>
          Promise.race([s.exited, new Promise((r) => setTimeout(r, 10_000))]).then(() => {
            if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
          }),
        ),
      );
      await admin.end();
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    for (let i = 0; i < count; i++) await cluster.start();
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}

/** The API as an existing client calls it: envelope answers, form posts, the token header. */
export async function api(
  base: string,
  method: 'GET' | 'POST',
  url: string,
  params: Record<string, unknown> = {},
  token?: string,
  timeoutMs?: number,
) {
  const body = new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)] as [string, string]),
  );
  const headers: Record<string, string> = { lang: 'en' };
  if (token) headers.authorization = token;
  const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const res =
    method === 'GET'
      ? await fetch(`${base}${url}?${body}`, { headers, signal })
      : await fetch(`${base}${url}`, {
          method,
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body,
          signal,
        });
  return (await res.json()) as { code: number; msg: string; data: any };
}
