import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { pushMessage } from '@tp/contract/pushes';
import { type JournalLimits, MemoryPushJournal, type PushJournal, RedisPushJournal } from './push-journal.ts';
import { redisClient } from './redis-bus.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('push-journal.test.ts: the Redis journal is skipped; set REDIS_URL to test it');

const closed = (id: number) => pushMessage('FOREX_CLOSED', { id: [id] });
const clients = REDIS_URL ? [redisClient(REDIS_URL), redisClient(REDIS_URL)] : [];
afterAll(async () => {
  for (const c of clients) await c.quit();
});

/** Two servers' views of one journal: the same memory journal (a lone server), or two Redis connections. */
const kinds: [string, (limits: JournalLimits) => [PushJournal, PushJournal]][] = [
  [
    'memory',
    (limits) => {
      const journal = new MemoryPushJournal(limits);
      return [journal, journal];
    },
  ],
];
if (REDIS_URL) {
  kinds.push([
    'redis',
    (limits) => {
      const prefix = `test:${randomBytes(4).toString('hex')}:`;
      return [new RedisPushJournal(clients[0]!, prefix, limits), new RedisPushJournal(clients[1]!, prefix, limits)];
    },
  ]);
}

describe.each(kinds)('the push journal (%s)', (_kind, make) => {
  it("numbers a user's pushes one by one and replays what followed a seq, on any server", async () => {
    const [a, b] = make({ windowMs: 60_000, maxEntries: 10 });
    const s1 = (await a.append(7, closed(1)))!;
    const s2 = (await b.append(7, closed(2)))!;
    const other = (await a.append(8, closed(99)))!;
    expect(s2).toBe(s1 + 1);
    expect(other).toEqual(expect.any(Number));
    expect(await b.replay(7, s1)).toEqual({ pushes: [{ ...closed(2), seq: s2 }], complete: true });
    expect(await a.replay(7, s1 - 1)).toEqual({
      pushes: [
        { ...closed(1), seq: s1 },
        { ...closed(2), seq: s2 },
      ],
      complete: true,
    });
    expect(await a.replay(7, s2)).toEqual({ pushes: [], complete: true });
    // Before anything kept, or a seq never given, or a user with nothing: incomplete.
    expect((await a.replay(7, s1 - 2)).complete).toBe(false);
    expect(await a.replay(7, s2 + 5)).toEqual({ pushes: [], complete: false });
    expect(await a.replay(9, 0)).toEqual({ pushes: [], complete: false });
  });

  it('keeps at most the last entries and only for the window', async () => {
    const [a, b] = make({ windowMs: 300, maxEntries: 2 });
    const s1 = (await a.append(7, closed(1)))!;
    await a.append(7, closed(2));
    const s3 = (await b.append(7, closed(3)))!;
    expect(await b.replay(7, s1)).toEqual({
      pushes: [
        { ...closed(2), seq: s1 + 1 },
        { ...closed(3), seq: s3 },
      ],
      complete: true,
    });
    expect(await b.replay(7, s1 - 1)).toMatchObject({ complete: false, pushes: [{ seq: s1 + 1 }, { seq: s3 }] });
    await new Promise((r) => setTimeout(r, 400));
    expect(await a.replay(7, s1)).toEqual({ pushes: [], complete: false });
    // The numbering goes on: a client that saw the last one missed nothing.
    expect(await a.replay(7, s3)).toEqual({ pushes: [], complete: true });
    expect(await b.append(7, closed(4))).toBe(s3 + 1);
  });
});
