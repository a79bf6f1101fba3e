import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-app.ts';
import type { Database } from './db/client.ts';
import { PgLeaderElector } from './leader.ts';

const BASE = process.env.TEST_DATABASE_URL;
if (!BASE) console.warn('leader.test.ts skipped: set TEST_DATABASE_URL (PostgreSQL) to run it');

const log = pino({ level: 'silent' });
const until = async (check: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.skipIf(!BASE)('PgLeaderElector', () => {
  let database: Database;
  let url: string;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    const res = (await database.db.execute('select current_database() as db')) as unknown as { rows: { db: string }[] };
    const u = new URL(BASE!);
    u.pathname = `/${res.rows[0]!.db}`;
    url = u.toString();
  });
  const stops: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await database?.close();
  });

  function elector(name: string, events: string[]) {
    return new PgLeaderElector(
      { url, log, name, retryMs: 200 },
      {
        onElected: async () => void events.push(`${name} elected`),
        onDeposed: async () => void events.push(`${name} deposed`),
      },
    );
  }

  it('elects one server; when its connection dies another takes over at once', async () => {
    const events: string[] = [];
    const a = elector('tp-leader-a', events);
    const b = elector('tp-leader-b', events);
    await a.start();
    await b.start();
    expect(a.isLeader).toBe(true);
    expect(b.isLeader).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    expect(events).toEqual(['tp-leader-a elected']);

    // The leader's backend goes away as when its process is killed.
    const admin = new pg.Client({ connectionString: url });
    admin.on('error', () => undefined);
    await admin.connect();
    stops.push(() => admin.end(), () => a.stop(), () => b.stop());
    const lostAt = Date.now();
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'tp-leader-a'`);
    await until(() => b.isLeader, 5_000);
    const takeoverMs = Date.now() - lostAt;
    expect(takeoverMs).toBeLessThan(5_000);
    await until(() => events.includes('tp-leader-a deposed'), 3_000);
    expect(a.isLeader).toBe(false);

    // The old leader keeps following and wins again once b steps down.
    await b.stop();
    await until(() => a.isLeader, 3_000);
    expect(events).toEqual(['tp-leader-a elected', 'tp-leader-a deposed', 'tp-leader-b elected', 'tp-leader-b deposed', 'tp-leader-a elected']);
    await a.stop();
    const held = await admin.query(`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())`);
    expect(held.rows[0].n).toBe(0);
  });
});
