import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, openTestDatabase } from '../../../test/test-app.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../../test/scratch-database.ts';
import { type Database, openDatabase, preparedCall, queryRaw } from './client.ts';

const rowsOf = (result: unknown) => (result as { rows?: Record<string, unknown>[] }).rows ?? (result as Record<string, unknown>[]);

describe.each(dbTargets)('transactionWith on %s', (target) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(target);
    await database.db.execute(sql`create table counters (id int primary key, n int not null)`);
    await database.db.execute(sql`insert into counters values (1, 0)`);
  });
  afterAll(async () => database?.close());

  it('hands each first statement its own rows, and commits what fn did', async () => {
    const seen = await database.transactionWith(
      ['select n from counters where id = 1 for update', 'select 7 as seven'],
      async (tx, rows) => {
        await tx.execute(sql`update counters set n = n + 1 where id = 1`);
        return rows.map((r) => r.map((row) => Number(Object.values(row)[0])));
      },
    );
    expect(seen).toEqual([[0], [7]]);
    expect(rowsOf(await database.db.execute(sql`select n from counters`))[0]!.n).toBe(1);
  });

  it('reads after a lock what the lock holder before it committed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const first = database.transactionWith(['select n from counters where id = 1 for update'], async (tx) => {
      locked();
      await held;
      await tx.execute(sql`update counters set n = 100 where id = 1`);
    });
    await isLocked;
    const second = database.transactionWith(
      ['select n from counters where id = 1 for update', 'select n from counters where id = 1'],
      async (_tx, rows) => rows.map((r) => Number(r[0]!.n)),
    );
    release();
    await first;
    // Both the lock's own row and the read after it show the committed 100, not the 1 from before the wait.
    expect(await second).toEqual([100, 100]);
  });

  it('runs SQL text with parameters on the database, on its handle and on a plain transaction', async () => {
    const text = 'select count(*)::int as n, $2::text as label from counters where id = any($1::int[])';
    expect(await queryRaw(database.db, text, [[1, 2], 'db'])).toEqual([{ n: 1, label: 'db' }]);
    expect(await database.transactionWith([], (tx) => queryRaw(tx, text, [[1], 'handle']))).toEqual([{ n: 1, label: 'handle' }]);
    // A transaction of the query builder's own goes through the builder, arrays still one parameter.
    expect(await database.db.transaction((tx) => queryRaw(tx, text, [[2, 3], 'builder']))).toEqual([{ n: 0, label: 'builder' }]);
  });

  it('runs prepared first statements with their integer and list arguments, alongside plain ones', async () => {
    const lockOne = preparedCall('t_lock_counter', 'select id from counters where id = $1 for update');
    const some = preparedCall('t_some_counters', 'select id from counters where id = any($1::int[]) and n >= $2 order by id');
    for (let i = 0; i < 2; i++) {
      const rows = await database.transactionWith([lockOne(1), some([1, 2], 0), some([], 0), 'select 7 as seven'], async (_tx, r) => r);
      expect(rows.map((r) => r.map((row) => Number(Object.values(row)[0])))).toEqual([[1], [1], [], [7]]);
    }
    // Only integers reach the statement's text.
    expect(() => some([1, 1.5], 0)).toThrow(/not an integer/);
    expect(() => lockOne(Number.NaN)).toThrow(/not an integer/);
    expect(() => preparedCall('drop table; --', 'select 1')).toThrow(/bad statement name/);
  });

  it('rolls back when fn throws, and when a first statement fails', async () => {
    await expect(
      database.transactionWith(['select n from counters where id = 1 for update'], async (tx) => {
        await tx.execute(sql`update counters set n = -1 where id = 1`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(database.transactionWith(['select 1', 'select * from no_such_table'], async () => 1)).rejects.toThrow();
    expect(rowsOf(await database.db.execute(sql`select n from counters`))[0]!.n).toBe(100);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('prepared statements on postgres', () => {
  let scratch: ScratchDatabase;
  let database: Database;
  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 't_prepared');
    // One connection, and room for three named texts (the migration bookkeeping insert takes one).
    database = await openDatabase({ url: scratch.url, poolSize: 1, preparedTexts: 3 });
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  const prepared = async () =>
    rowsOf(await database.db.execute(sql`select statement from pg_prepared_statements where from_sql = false order by prepare_time`)).map(
      (r) => String(r.statement),
    );

  it('prepares a repeated parameterised statement once per connection, up to the limit of texts', async () => {
    for (let i = 0; i < 3; i++) {
      expect(rowsOf(await database.db.execute(sql`select ${i}::int + 1 as x`))[0]!.x).toBe(i + 1);
    }
    expect(await prepared()).toEqual([expect.stringMatching(/^insert into "drizzle"/), 'select $1::int + 1 as x']);
    // Within a transaction too, and a statement parsed in a rolled-back transaction stays usable.
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select ${1}::int * 2 as y`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(rowsOf(await database.db.execute(sql`select ${21}::int * 2 as y`))[0]!.y).toBe(42);
    expect((await prepared()).slice(1)).toEqual(['select $1::int + 1 as x', 'select $1::int * 2 as y']);
    // Past the limit a text is parsed each time and is still answered, from the builder or as text.
    expect(rowsOf(await database.db.execute(sql`select ${5}::int - 1 as z`))[0]!.z).toBe(4);
    expect(await queryRaw(database.db, 'select $1::int - 2 as w', [5])).toEqual([{ w: 3 }]);
    expect(await prepared()).toHaveLength(3);
  });

  it('prepares a first statement once per connection, keeps it through a failed transaction, and again after a migration changed its result', async () => {
    await database.db.execute(sql`create table if not exists t_first (id int primary key, a text)`);
    await database.db.execute(sql`insert into t_first values (1, 'one') on conflict do nothing`);
    const read = preparedCall('t_first_read', 'select * from t_first where id = $1 for update');
    const fromSql = async () =>
      rowsOf(await database.db.execute(sql`select name from pg_prepared_statements where from_sql and name = 't_first_read'`)).length;
    expect(await database.transactionWith([read(1)], async (_tx, [rows]) => rows)).toEqual([{ id: 1, a: 'one' }]);
    await expect(
      database.transactionWith([read(1)], async () => {
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await database.transactionWith([read(1)], async (_tx, [rows]) => rows)).toEqual([{ id: 1, a: 'one' }]);
    expect(await fromSql()).toBe(1);
    // A column added under it changes what `select *` returns: that call fails once, the next prepares it again.
    await database.db.execute(sql`alter table t_first add column b int default 2`);
    await expect(database.transactionWith([read(1)], async () => 1)).rejects.toThrow(/cached plan must not change result type/);
    expect(await database.transactionWith([read(1)], async (_tx, [rows]) => rows)).toEqual([{ id: 1, a: 'one', b: 2 }]);
  });

  it('prepares SQL text run past the query builder as well', async () => {
    const other = await openDatabase({ url: scratch.url, poolSize: 1, preparedTexts: 2 });
    try {
      for (let i = 0; i < 3; i++) expect(await queryRaw(other.db, 'select $1::int * 3 as v', [i])).toEqual([{ v: i * 3 }]);
      const names = await queryRaw(other.db, 'select statement from pg_prepared_statements where from_sql = false and statement like $1', [
        'select $1::int * 3%',
      ]);
      expect(names).toEqual([{ statement: 'select $1::int * 3 as v' }]);
    } finally {
      await other.close();
    }
  });
});
