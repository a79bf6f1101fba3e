import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-app.ts';
import type { Database } from './db/client.ts';
import * as leader from './leader.ts';
import { PgLeaderElector } from './leader.ts';

const BASE = process.env.TEST_DATABASE_URL;
if (!BASE) console.warn('leader-lease.test.ts skipped: set TEST_DATABASE_URL (PostgreSQL) to run it');

const log = pino({ level: 'silent' });
const until = async (check: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** What a process frozen by SIGSTOP (or a VM paused) looks like from inside: none of its timers run. */
function freeze(e: PgLeaderElector): () => Promise<void> {
  const inner = e as unknown as { timer: NodeJS.Timeout | null; watchdog?: NodeJS.Timeout | null; stopped: boolean; step(): Promise<void> };
  if (inner.timer) clearTimeout(inner.timer);
  if (inner.watchdog) clearTimeout(inner.watchdog);
  inner.stopped = true;
  return async () => {
    inner.stopped = false;
    await inner.step();
  };
}

describe.skipIf(!BASE)('the leader lease', () => {
  let database: Database;
  let url: string;
  const stops: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    const res = (await database.db.execute('select current_database() as db')) as unknown as { rows: { db: string }[] };
    const u = new URL(BASE!);
    u.pathname = `/${res.rows[0]!.db}`;
    url = u.toString();
    await database.db.execute(sql`create table writes (n int)`);
  });
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await database?.close();
  });

  it('replaces a paused leader within a few seconds, and refuses its writes when it resumes', async () => {
    const events: string[] = [];
    const elector = (name: string) =>
      new PgLeaderElector({ url, log, name, retryMs: 200, leaseMs: 1_000 } as ConstructorParameters<typeof PgLeaderElector>[0], {
        onElected: async () => void events.push(`${name} elected`),
        onDeposed: async () => void events.push(`${name} deposed`),
      });
    const a = elector('tp-leader-a');
    const b = elector('tp-leader-b');
    stops.push(
      () => a.stop(),
      () => b.stop(),
    );
    await a.start();
    await b.start();
    expect(a.isLeader).toBe(true);

    const pausedAt = Date.now();
    const resume = freeze(a);
    await until(() => b.isLeader, 5_000);
    expect(Date.now() - pausedAt).toBeLessThan(3_000);
    expect(events).toEqual(['tp-leader-a elected', 'tp-leader-b elected']);

    // The old leader wakes up: a write under its epoch is refused by the database, one under the new epoch passes.
    const { leaderFence, isFenced } = leader as unknown as {
      leaderFence: { run<T>(epoch: number, fn: () => T): T };
      isFenced(err: unknown): boolean;
    };
    const write = (epoch: number | undefined) =>
      leaderFence.run(epoch!, () =>
        database.transactionWith([], async (tx) => void (await tx.execute(sql`insert into writes values (1)`))),
      );
    const refused = await write(a.epoch).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isFenced(refused)).toBe(true);
    await write(b.epoch);
    const count = (await database.db.execute(sql`select count(*)::int as n from writes`)) as unknown as { rows: { n: number }[] };
    expect(count.rows[0]!.n).toBe(1);

    // Its first renewal finds the lease taken: it steps down and stays a follower.
    await resume();
    await until(() => events.includes('tp-leader-a deposed'), 3_000);
    expect(a.isLeader).toBe(false);
    expect(b.isLeader).toBe(true);
    await a.stop();
    await b.stop();
  });

  it('a lone server that loses its connection leads again within about a second', async () => {
    const events: string[] = [];
    const a = new PgLeaderElector(
      { url, log, name: 'tp-leader-alone', retryMs: 200 },
      {
        onElected: async () => void events.push('elected'),
        onDeposed: async () => void events.push('deposed'),
      },
    );
    stops.push(() => a.stop());
    await a.start();
    expect(a.isLeader).toBe(true);
    const client = (a as unknown as { client: { connection: { stream: { destroy(): void } } } }).client;
    const lostAt = Date.now();
    client.connection.stream.destroy();
    await until(() => events.length === 3, 5_000);
    expect(events).toEqual(['elected', 'deposed', 'elected']);
    expect(Date.now() - lostAt).toBeLessThan(1_500);
    await a.stop();
  });
});
