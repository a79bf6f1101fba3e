import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionLost, type Database } from '../src/platform/db/client.ts';
import { freezableRelay } from './freezable-relay.ts';
import { createTestApp, openTestDatabase, type TestApp } from './test-app.ts';

const PG_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

describe.skipIf(!PG_URL)('a database connection that PostgreSQL drops', () => {
  let database: Database;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    await database.db.execute(sql`create table counters (id int primary key, n int not null)`);
    await database.db.execute(sql`insert into counters values (1, 0)`);
    admin = new pg.Client({ connectionString: PG_URL });
    admin.on('error', () => undefined);
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.close();
  });

  it('fails the transaction it served, writes nothing, and the pool serves the next one (the process lives)', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const errors: unknown[] = [];
      for (let round = 0; round < 3; round++) {
        const attempt = database.transactionWith(
          ['select n from counters where id = 1 for update', 'select pg_backend_pid() as pid'],
          async (tx, rows) => {
            await tx.execute(sql`update counters set n = n + 1 where id = 1`);
            // The backend serving this transaction is terminated while the client is checked out and idle.
            await admin.query('select pg_terminate_backend($1)', [rows[1]![0]!.pid]);
            await new Promise((r) => setTimeout(r, 100));
            await tx.execute(sql`update counters set n = n + 1 where id = 1`);
          },
        );
        const err = await attempt.then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).not.toBeNull();
        errors.push(err);
      }
      await new Promise((r) => setTimeout(r, 100));
      expect(uncaught).toEqual([]);
      // Told apart from a wrong statement: the request it served is answered "try again".
      for (const err of errors) expect(isConnectionLost(err)).toBe(true);
      // Nothing half-written, and the pool hands out working connections again.
      const rows = (await database.db.execute(sql`select n from counters where id = 1`)) as unknown as { rows: { n: number }[] };
      expect(rows.rows[0]!.n).toBe(0);
      const n = await database.transactionWith(['select n from counters where id = 1 for update'], async (_tx, rows) =>
        Number(rows[0]![0]!.n),
      );
      expect(n).toBe(0);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});

describe.skipIf(!REDIS_URL)('a Redis that stops answering', () => {
  let relay: Awaited<ReturnType<typeof freezableRelay>>;
  let t: TestApp;
  beforeAll(async () => {
    relay = await freezableRelay(new URL(REDIS_URL!));
    t = await createTestApp('pglite', {
      REDIS_URL: relay.url,
      REDIS_PREFIX: `test:${process.pid}:`,
      MARKET_ALWAYS_OPEN: '1',
      HISTORY_BARS: '0',
    });
  });
  afterAll(async () => {
    relay?.thaw();
    await t?.close();
    await relay?.close();
  });

  const timed = async (url: string) => {
    const start = Date.now();
    const res = await t.app.inject({ method: 'GET', url });
    return { ms: Date.now() - start, status: res.statusCode };
  };

  it('holds no request past its deadline, and readiness reports it within a second', async () => {
    // Warm: the rate limiter's connection is up and counting.
    await expect.poll(async () => (await timed('/v1/api/forex/trade_list')).status, { timeout: 5_000 }).toBe(200);
    relay.freeze();
    const first = await timed('/v1/api/forex/trade_list');
    expect(first.status).toBe(200);
    expect(first.ms).toBeLessThan(1_000);
    // Once Redis was seen not to answer, requests no longer wait for it at all.
    const later = [];
    for (let i = 0; i < 5; i++) later.push(await timed('/v1/api/forex/trade_list'));
    for (const r of later) {
      expect(r.status).toBe(200);
      expect(r.ms).toBeLessThan(100);
    }
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.bus.ok).toBe(false);
    relay.thaw();
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: '/health/ready' })).json().checks.bus.ok, { timeout: 5_000 })
      .toBe(true);
  });
});
