import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { type ExtractTablesWithRelations, type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../../paths.ts';
import { checkSchema, type MigrateMode, migratePostgres } from './migrate.ts';
import { fenceStatement, leaderFence } from '../leader.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** One type for both drivers: every module writes its SQL once, for PGlite and PostgreSQL alike. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A database handle or an open transaction: repositories accept either. */
export type DbOrTx = Db | Tx;

/** Rows as the driver returns them, before any mapping. */
export type RawRow = Record<string, unknown>;

/**
 * A first statement of a transactionWith that runs on every order (a user's lock, a read under it):
 * on PostgreSQL it is prepared once per connection (PREPARE, its own round trip the first time)
 * and then sent as `EXECUTE name(args)` with BEGIN, so PostgreSQL does not plan it again on each
 * call (planning these took 75-100 µs each, about an eighth of PostgreSQL's CPU per order).
 * Arguments are integers or lists of integers, written into the text as literals.
 */
export interface PreparedCall {
  /** The statement's name on the connection: one text per name. */
  name: string;
  /** Its SQL, with $1, $2… (a list's parameter cast to its array type, e.g. `$1::int[]`). */
  text: string;
  args: (number | number[])[];
}

/** A prepared first statement: called with its arguments, which must be safe integers. */
export function preparedCall(name: string, text: string): (...args: (number | number[])[]) => PreparedCall {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`db: bad statement name ${name}`);
  return (...args) => {
    for (const a of args.flat()) if (!Number.isSafeInteger(a)) throw new Error(`db: ${String(a)} is not an integer (${name})`);
    return { name, text, args };
  };
}

/**
 * Remembers prepared calls by name (e.g. one per shape of a read, or per number of users locked):
 * each is built once, from the text `build` gives the first time.
 */
export function preparedCalls(): (name: string, build: () => string) => ReturnType<typeof preparedCall> {
  const calls = new Map<string, ReturnType<typeof preparedCall>>();
  return (name, build) => {
    let call = calls.get(name);
    if (!call) calls.set(name, (call = preparedCall(name, build())));
    return call;
  };
}

const literalOf = (arg: number | number[]): string => (Array.isArray(arg) ? `'{${arg.join(',')}}'` : String(arg));

/** The statement as plain SQL text, its arguments written in (the embedded database, or a transaction without transactionWith). */
export function inlineSql(statement: string | PreparedCall): string {
  if (typeof statement === 'string') return statement;
  return statement.text.replace(/\$(\d+)/g, (_, n: string) => literalOf(statement.args[Number(n) - 1]!));
}

/**
 * Runs `fn` in a transaction whose first statements (SQL text without parameters, or prepared
 * calls, e.g. a row lock and a read under it) are sent together with BEGIN: on PostgreSQL they take
 * one round trip, where each would otherwise take its own. `fn` gets their rows, one list per statement.
 */
export type TransactionWith = <T>(
  firstStatements: (string | PreparedCall)[],
  fn: (tx: Tx, firstRows: RawRow[][]) => Promise<T>,
) => Promise<T>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  transactionWith: TransactionWith;
  /** Connections and queries now, for health and metrics. */
  usage(): DatabaseUsage;
  /** Told each query's duration; shared by reference, so copies of this object feed the same observer. */
  timing: QueryTiming;
  /** Embedded database only: a consistent gzipped tarball of its data directory, taken while no transaction runs. */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

/** PostgreSQL: the pool's connections; PGlite: one connection. Queries sent and not yet answered. */
export interface DatabaseUsage {
  total: number;
  idle: number;
  waiting: number;
  inFlight: number;
}

export interface QueryTiming {
  observe: ((seconds: number) => void) | null;
  inFlight: number;
}

/** Wraps a driver's query function: counts it in flight and reports its duration (promise or callback form). */
function timedQuery<F extends (...args: any[]) => any>(query: F, timing: QueryTiming): F {
  return ((...args: unknown[]) => {
    timing.inFlight++;
    const start = performance.now();
    const done = () => {
      timing.inFlight--;
      timing.observe?.((performance.now() - start) / 1000);
    };
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...a: unknown[]) => {
        done();
        return callback(...a);
      };
      return query(...args);
    }
    const out = query(...args);
    if (out && typeof (out as Promise<unknown>).then === 'function') (out as Promise<unknown>).then(done, done);
    else done();
    return out;
  }) as F;
}

const rowsOf = (result: unknown): RawRow[] => (result as { rows?: RawRow[] }).rows ?? (result as RawRow[]);

interface DriverClient {
  query(text: string, params?: unknown[]): Promise<{ rows: RawRow[] }>;
}

/**
 * Runs SQL text with $1, $2… parameters past the query builder, for the few statements every
 * order runs: on a database or a transactionWith handle it goes straight to the driver (and, on
 * PostgreSQL, becomes a prepared statement); on other transactions through the query builder.
 * Rows come as the driver returns them (numeric as text, bigint as text or BigInt).
 */
export async function queryRaw(db: DbOrTx, text: string, params: unknown[]): Promise<RawRow[]> {
  const client = (db as { $client?: DriverClient }).$client;
  if (client) return (await client.query(text, params)).rows;
  return rowsOf(await db.execute(sqlOfText(text, params)));
}

/**
 * Remembers SQL texts by a key of their shape (e.g. the columns or rows they write): each text is
 * built once, and the same text each time lets PostgreSQL use its prepared statement.
 */
export function statementTexts(): (key: string, build: () => string) => string {
  const texts = new Map<string, string>();
  return (key, build) => {
    let text = texts.get(key);
    if (text === undefined) texts.set(key, (text = build()));
    return text;
  };
}

function sqlOfText(text: string, params: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  // sql.param: one parameter even for an array (a template would spread an array into a list).
  return sql.join(parts.map((part, i) => (i % 2 ? sql`${sql.param(params[Number(part) - 1])}` : sql.raw(part))));
}

const MIGRATIONS = MIGRATIONS_DIR;

export { APPLIED_MIGRATION_QUERY, latestMigration } from './migrate.ts';

export interface DatabaseOptions {
  /** PostgreSQL connection string; PGlite when absent. */
  url?: string;
  /** PGlite data directory; in memory when absent. */
  dataDir?: string;
  poolSize?: number;
  /** PGlite: a backup (dumpDataDir's tarball) to fill a new, empty data directory from. */
  loadDataDir?: Blob;
  /** PostgreSQL: how many distinct statement texts are prepared (PREPARED_TEXTS). */
  preparedTexts?: number;
  /** Apply this build's migrations (default), only check they are applied, or neither. */
  migrate?: MigrateMode;
}

/** Distinct statement texts a server names (prepares once per connection); others are parsed each time. */
export const PREPARED_TEXTS = 1000;

/**
 * Makes every parameterised statement a named prepared statement: PostgreSQL parses and plans its
 * text once per connection instead of on every call. Texts past the limit (PREPARED_TEXTS; e.g.
 * inserts of ever new row counts) stay unnamed, so a connection never holds more than that many.
 * A schema change that alters a prepared statement's result columns (a `select *` on a table that
 * gained a column) makes PostgreSQL refuse it with "cached plan must not change result type" for
 * as long as it stays prepared: such a statement is deallocated and prepared again, at once when it
 * ran on its own, at its next use when it ran inside a transaction (which the error has aborted).
 * So servers keep running through a migration instead of all restarting.
 */
function prepareRepeatedStatements(pool: pg.Pool, limit: number, timing: QueryTiming): void {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (!name && names.size < limit) names.set(text, (name = `s${names.size + 1}`));
    return name;
  };
  pool.on('connect', (client) => {
    (client as unknown as Counted)[SENT] = 0;
    const query = timedQuery(client.query.bind(client) as (...args: unknown[]) => unknown, timing) as (
      ...args: unknown[]
    ) => Promise<unknown>;
    const stale = new Set<string>();
    const parsed = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
    const forget = async (name: string) => {
      stale.delete(name);
      delete parsed[name];
      await query(`deallocate ${name}`).catch(() => undefined);
    };
    const runNamed = async (c: pg.QueryConfig, name: string, args: unknown[]): Promise<unknown> => {
      // A failed transaction takes no statement until its rollback: the stale one is forgotten after it.
      if (stale.has(name) && client.getTransactionStatus() !== 'E') await forget(name);
      try {
        return await query({ ...c, name }, ...args);
      } catch (err) {
        if (!isPlanChanged(err)) throw err;
        if (client.getTransactionStatus() !== 'I') {
          stale.add(name);
          throw err;
        }
        await forget(name);
        return query({ ...c, name }, ...args);
      }
    };
    client.query = ((config: unknown, ...rest: unknown[]) => {
      (client as unknown as Counted)[SENT]++;
      // (text, values, callback?) or ({ text, values? }, values?, callback?)
      const c: pg.QueryConfig | null = typeof config === 'string' ? { text: config } : (config as pg.QueryConfig | null);
      const values = (Array.isArray(rest[0]) ? rest[0] : c?.values) as unknown[] | undefined;
      if (c && typeof c === 'object' && typeof c.text === 'string' && !c.name && Array.isArray(values) && values.length) {
        const name = nameOf(c.text);
        if (name) {
          const callback = typeof rest.at(-1) === 'function' ? (rest.at(-1) as (err: unknown, res?: unknown) => void) : undefined;
          const out = runNamed(c, name, callback ? rest.slice(0, -1) : rest);
          if (!callback) return out;
          out.then(
            (res) => callback(null, res),
            (err: unknown) => callback(err),
          );
          return undefined;
        }
      }
      return query(config, ...rest);
    }) as typeof client.query;
  });
}

const SENT = Symbol('statements sent');
type Counted = { [SENT]: number };

/**
 * How many statements the connection of a PostgreSQL transaction has sent so far (undefined on
 * PGlite): compared before and after a step, it tells whether the step sent anything.
 */
export function statementsSent(tx: DbOrTx): number | undefined {
  return ((tx as { $client?: Partial<Counted> }).$client ?? {})[SENT];
}

const isPlanChanged = (err: unknown) =>
  (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test((err as Error).message ?? '');
const checkoutListeners = new WeakMap<pg.PoolClient, (err: Error) => void>();

/**
 * The pool listens for a connection's 'error' only while it is idle. A checked-out connection
 * that PostgreSQL drops (a restart, a terminated backend) would emit 'error' with no listener and
 * end the process; with this listener the query under way fails instead, its request is answered
 * "try again", and the release hands the dead connection back to be discarded.
 */
function listenWhileCheckedOut(pool: pg.Pool): void {
  pool.on('acquire', (client) => {
    const onError = () => undefined;
    checkoutListeners.set(client, onError);
    client.on('error', onError);
  });
  pool.on('release', (_err, client) => {
    const onError = checkoutListeners.get(client);
    if (!onError) return;
    checkoutListeners.delete(client);
    client.removeListener('error', onError);
  });
}

const CONNECTION_LOST_CODES = new Set([
  // admin_shutdown, crash_shutdown, cannot_connect_now, and the connection_exception class.
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/**
 * Whether an error means the database connection was lost or could not be made (not that a
 * statement was wrong): the request it served failed whole and may be tried again.
 */
export function isConnectionLost(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && CONNECTION_LOST_CODES.has(e.code)) return true;
    if (
      typeof e.message === 'string' &&
      /^Connection terminated|^timeout exceeded when trying to connect|^Client has encountered a connection error/.test(e.message)
    )
      return true;
  }
  return false;
}

/** The embedded database's files under DATA_DIR. */
export const pgliteDir = (dataDir: string) => path.resolve(dataDir, 'pglite');

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 20 });
    const timing: QueryTiming = { observe: null, inFlight: 0 };
    prepareRepeatedStatements(pool, opts.preparedTexts ?? PREPARED_TEXTS, timing);
    // Numeric stays a string (exact decimal); bigint ids fit in a JS number for this product's lifetime.
    pool.on('error', () => undefined);
    listenWhileCheckedOut(pool);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const mode = opts.migrate ?? 'apply';
    try {
      if (mode === 'apply') await migratePostgres(pool, MIGRATIONS);
      else if (mode === 'check') await checkSchema(pool, MIGRATIONS);
    } catch (err) {
      await pool.end();
      throw err;
    }
    // The prepared calls' names each connection has prepared (PREPARE is not undone by a rollback).
    const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();
    const transactionWith: TransactionWith = async (firstStatements, fn) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      // Under a leader's lease: the transaction first checks that the lease is still this leader's.
      const epoch = leaderFence.getStore();
      const head = epoch === undefined ? ['begin'] : ['begin', fenceStatement(epoch)];
      let prepared = preparedOn.get(client);
      if (!prepared) preparedOn.set(client, (prepared = new Set()));
      const calls = firstStatements.filter((st): st is PreparedCall => typeof st !== 'string');
      try {
        for (const call of calls) {
          if (prepared.has(call.name)) continue;
          // Its own message, before BEGIN: nothing else is undone if it fails. Already there (42P05) is fine.
          await client.query(`prepare ${call.name} as ${call.text}`).catch((err: { code?: string }) => {
            if (err.code !== '42P05') throw err;
          });
          prepared.add(call.name);
        }
        const texts = firstStatements.map((st) =>
          typeof st === 'string' ? st : st.args.length ? `execute ${st.name}(${st.args.map(literalOf).join(', ')})` : `execute ${st.name}`,
        );
        // The simple query protocol takes several statements in one message, and answers in one.
        const answer = (await client.query([...head, ...texts].join(';\n'))) as unknown as pg.QueryResult | pg.QueryResult[];
        const results = (Array.isArray(answer) ? answer : [answer]).slice(head.length - 1);
        // No schema: no relational queries are used inside money transactions, and none is built per call.
        const out = await fn(
          drizzlePg(client) as unknown as Tx,
          results.slice(1).map((r) => r.rows),
        );
        await client.query('commit');
        return out;
      } catch (err) {
        // Also after a failed BEGIN statement: the client goes back with no transaction open.
        await client.query('rollback').catch((e: Error) => (broken = e));
        // A migration changed what a prepared call returns: prepared again at its next use.
        if (isPlanChanged(err) && !broken)
          for (const call of calls) {
            prepared.delete(call.name);
            await client.query(`deallocate ${call.name}`).catch(() => undefined);
          }
        throw err;
      } finally {
        client.release(broken);
      }
    };
    const usage = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, inFlight: timing.inFlight });
    return { db, kind: 'postgres', transactionWith, usage, timing, close: () => pool.end() };
  }
  let client: PGlite;
  if (opts.dataDir) {
    const dir = pgliteDir(opts.dataDir);
    fs.mkdirSync(dir, { recursive: true });
    client = new PGlite(dir, opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {});
  } else {
    client = new PGlite();
  }
  await client.waitReady;
  const timing: QueryTiming = { observe: null, inFlight: 0 };
  timePglite(client, timing);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const mode = opts.migrate ?? 'apply';
  try {
    // One process owns an embedded database: no lock is needed.
    if (mode === 'apply') await migratePglite(db as never, { migrationsFolder: MIGRATIONS });
    else if (mode === 'check') await checkSchema(client, MIGRATIONS);
  } catch (err) {
    await client.close();
    throw err;
  }
  // In-process: a round trip costs nothing to save.
  const transactionWith: TransactionWith = (firstStatements, fn) =>
    client.transaction(async (t) => {
      const rows: RawRow[][] = [];
      for (const statement of firstStatements) rows.push((await t.query<RawRow>(inlineSql(statement))).rows);
      // A handle on the transaction itself, so queryRaw reaches the driver as it does on PostgreSQL.
      return fn(drizzlePglite({ client: t as unknown as PGlite }) as unknown as Tx, rows);
    });
  const usage = () => ({ total: 1, idle: timing.inFlight ? 0 : 1, waiting: Math.max(0, timing.inFlight - 1), inFlight: timing.inFlight });
  // Under the transaction lock: no transaction is half done in the copy; the checkpoint writes out what is committed.
  const dumpDataDir = () =>
    client.transaction(async (tx) => {
      await tx.exec('checkpoint');
      return client.dumpDataDir('gzip');
    });
  return { db, kind: 'pglite', transactionWith, usage, timing, dumpDataDir, close: () => client.close() };
}

type Queries = { query: (...args: any[]) => Promise<unknown>; exec: (...args: any[]) => Promise<unknown> };

/** PGlite answers one statement at a time: its in-flight count is its queue. Statements inside transactions count too. */
function timePglite(client: PGlite, timing: QueryTiming): void {
  const wrap = (target: Queries) => {
    target.query = timedQuery(target.query.bind(target), timing);
    target.exec = timedQuery(target.exec.bind(target), timing);
  };
  wrap(client as unknown as Queries);
  const transaction = client.transaction.bind(client);
  client.transaction = ((fn: (tx: Queries) => Promise<unknown>) =>
    transaction((tx) => {
      wrap(tx as unknown as Queries);
      return fn(tx as unknown as Queries);
    })) as typeof client.transaction;
}
