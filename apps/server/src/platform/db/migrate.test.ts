/**
 * Migrations as their own step: servers that only check the schema refuse an older one with what
 * to do; migrators on PostgreSQL take turns under a lock (the second finds nothing to do); named
 * prepared statements survive a schema change that alters their result columns.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../../../test/scratch-database.ts';
import { type Database, openDatabase, queryRaw } from './client.ts';
import { migratePostgres, migrationsOf, SchemaTooOldError } from './migrate.ts';

const base = process.env.TEST_DATABASE_URL;

describe('a server that only checks the schema (embedded database)', () => {
  it('refuses an empty database, saying what to run', async () => {
    const err = await openDatabase({ migrate: 'check' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SchemaTooOldError);
    expect((err as Error).message).toContain('npm run migrate');
    expect((err as Error).message).toContain(migrationsOf().at(-1)!.tag);
  });
});

describe.skipIf(!base)('migrations on PostgreSQL', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase(base!, 't_migrate');
  });
  afterAll(async () => scratch?.drop());

  it('refuses to start on an empty database when told only to check', async () => {
    await expect(openDatabase({ url: scratch.url, migrate: 'check' })).rejects.toThrow(
      /older than this server: it has no migrations at all/,
    );
  });

  it('applies the migrations once when two migrators run together: the second waits, then finds nothing to do', async () => {
    const pools = [0, 1].map(() => new pg.Pool({ connectionString: scratch.url, max: 1 }));
    try {
      const applied = await Promise.all(pools.map((pool) => migratePostgres(pool)));
      expect(applied.sort()).toEqual([0, migrationsOf().length]);
      expect(await migratePostgres(pools[0]!)).toBe(0);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
    const database = await openDatabase({ url: scratch.url, migrate: 'check' });
    await database.close();
  });
});

describe.skipIf(!base)('prepared statements through a schema change on PostgreSQL', () => {
  let scratch: ScratchDatabase;
  let database: Database;
  let other: pg.Client;
  beforeAll(async () => {
    scratch = await createScratchDatabase(base!, 't_reprepare');
    database = await openDatabase({ url: scratch.url, poolSize: 1 });
    other = new pg.Client({ connectionString: scratch.url });
    await other.connect();
    await database.db.execute(sql`create table probes (id int primary key, a text)`);
    await database.db.execute(sql`insert into probes values (1, 'one')`);
  });
  afterAll(async () => {
    await other?.end();
    await database?.close();
    await scratch?.drop();
  });

  it('prepares a statement again when a migration changed its result columns, on its own and in a transaction', async () => {
    const text = 'select * from probes where id = $1';
    // Twice on the one pooled connection: the second run uses the prepared statement.
    expect(await queryRaw(database.db, text, [1])).toEqual([{ id: 1, a: 'one' }]);
    expect(await queryRaw(database.db, text, [1])).toEqual([{ id: 1, a: 'one' }]);
    // Another server's migration adds a column.
    await other.query(`alter table probes add column b text default 'bee'`);
    expect(await queryRaw(database.db, text, [1])).toEqual([{ id: 1, a: 'one', b: 'bee' }]);

    await other.query(`alter table probes add column c int default 3`);
    // Inside a transaction the refusal aborts it (nothing can run after an error there); the next use prepares again.
    await expect(database.transactionWith([], (tx) => queryRaw(tx, text, [1]))).rejects.toThrow(/cached plan must not change result type/);
    expect(await database.transactionWith([], (tx) => queryRaw(tx, text, [1]))).toEqual([{ id: 1, a: 'one', b: 'bee', c: 3 }]);
    expect(await queryRaw(database.db, text, [1])).toEqual([{ id: 1, a: 'one', b: 'bee', c: 3 }]);
  });
});
