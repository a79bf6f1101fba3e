import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** One type for both drivers: every module writes its SQL once, for PGlite and PostgreSQL alike. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A database handle or an open transaction: repositories accept either. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../drizzle');

export interface DatabaseOptions {
  /** PostgreSQL connection string; PGlite when absent. */
  url?: string;
  /** PGlite data directory; in memory when absent. */
  dataDir?: string;
  poolSize?: number;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 20 });
    // Numeric stays a string (exact decimal); bigint ids fit in a JS number for this product's lifetime.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(db as never, { migrationsFolder: MIGRATIONS });
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  let client: PGlite;
  if (opts.dataDir) {
    const dir = path.resolve(opts.dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  } else {
    client = new PGlite();
  }
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS });
  return { db, kind: 'pglite', close: () => client.close() };
}
