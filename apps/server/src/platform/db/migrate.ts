import fs from 'node:fs';
import path from 'node:path';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import { MIGRATIONS_DIR } from '../../paths.ts';

/**
 * What a server does with the schema when it opens the database: apply the migrations it carries
 * (under a lock, so servers started together take turns), only check that they are applied (when a
 * separate `npm run migrate` step owns the schema), or neither (tools that must open an old schema).
 */
export type MigrateMode = 'apply' | 'check' | 'none';

/** The advisory lock migrators of one database take turns on (an arbitrary constant, not the leader's). */
export const MIGRATION_LOCK_KEY = 7_320_514_612;

/** The created_at of the newest migration applied to the database (drizzle's own table). */
export const APPLIED_MIGRATION_QUERY = 'select max(created_at)::text as newest from drizzle.__drizzle_migrations';
const APPLIED_COUNT_QUERY = 'select count(*)::int as n from drizzle.__drizzle_migrations';

export interface Migration {
  tag: string;
  when: number;
}

/** The migrations this build carries, oldest first (drizzle records each one's `when` as created_at once applied). */
export function migrationsOf(folder = MIGRATIONS_DIR): Migration[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: Migration[] };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/** The newest migration this build carries. */
export const latestMigration = (folder = MIGRATIONS_DIR): Migration => migrationsOf(folder).at(-1)!;

/** The server refuses to start: the schema lacks migrations its code needs. */
export class SchemaTooOldError extends Error {}

interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

const UNDEFINED_TABLE = '42P01';
const UNDEFINED_SCHEMA = '3F000';
const missingTable = (err: unknown) => [UNDEFINED_TABLE, UNDEFINED_SCHEMA].includes((err as { code?: string }).code ?? '');

async function appliedCount(client: Queryable): Promise<number> {
  try {
    return Number((await client.query(APPLIED_COUNT_QUERY)).rows[0]?.n ?? 0);
  } catch (err) {
    if (missingTable(err)) return 0;
    throw err;
  }
}

/** The created_at of the newest applied migration, or null on a database no migration has touched. */
export async function appliedMigration(client: Queryable): Promise<number | null> {
  try {
    const newest = (await client.query(APPLIED_MIGRATION_QUERY)).rows[0]?.newest;
    return newest == null ? null : Number(newest);
  } catch (err) {
    if (missingTable(err)) return null;
    throw err;
  }
}

/**
 * Applies the pending migrations on PostgreSQL under a session advisory lock: a second migrator
 * (another server starting, another `npm run migrate`) waits for the first, then finds nothing to
 * do. Without it, servers started together on an empty database race on CREATE TABLE and one dies.
 * Returns how many migrations this call applied.
 */
export async function migratePostgres(pool: pg.Pool, folder = MIGRATIONS_DIR): Promise<number> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      const before = await appliedCount(client);
      await migratePg(drizzlePg(client), { migrationsFolder: folder });
      return (await appliedCount(client)) - before;
    } finally {
      await client.query(`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch((e: Error) => (broken = e));
    }
  } finally {
    // A connection whose unlock failed may still hold the lock: it is closed, not pooled.
    client.release(broken);
  }
}

/**
 * Refuses a schema older than this build's code, with what to do about it. A newer schema is fine:
 * migrations are additive (expand, then contract a release later), so an old server keeps working
 * while a rolling upgrade replaces it.
 */
export async function checkSchema(client: Queryable, folder = MIGRATIONS_DIR): Promise<void> {
  const expected = latestMigration(folder);
  const applied = await appliedMigration(client);
  if (applied !== null && applied >= expected.when) return;
  const has = applied === null ? 'no migrations at all' : `migrations up to ${new Date(applied).toISOString()}`;
  throw new SchemaTooOldError(
    `The database schema is older than this server: it has ${has}, this server needs ${expected.tag}.\n` +
      `Run the migrations first (npm run migrate, or the image's "migrate" command), then start the server;\n` +
      `or set MIGRATE_ON_START=true to let the server apply them itself.`,
  );
}
