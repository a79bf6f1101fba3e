import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisBus } from './redis-bus.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('redis-bus.test.ts skipped: set REDIS_URL (e.g. redis://127.0.0.1:6379) to run it');

const until = async (check: () => boolean, timeoutMs = 2_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe.skipIf(!REDIS_URL)('RedisBus', () => {
  const prefix = `test:${randomBytes(4).toString('hex')}:`;
  let a: RedisBus;
  let b: RedisBus;

  beforeAll(() => {
    a = new RedisBus({ url: REDIS_URL!, prefix });
    b = new RedisBus({ url: REDIS_URL!, prefix });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('delivers every message exactly once on both servers, in order, own messages at once', async () => {
    const onA: unknown[] = [];
    const onB: unknown[] = [];
    const offA = a.subscribe('quotes', (m) => onA.push(m));
    const offB = b.subscribe('quotes', (m) => onB.push(m));
    await Promise.all([a.settled(), b.settled()]);

    a.publish('quotes', { n: 1, price: '1.08501' });
    expect(onA).toEqual([{ n: 1, price: '1.08501' }]);
    for (let n = 2; n <= 50; n++) (n % 2 ? a : b).publish('quotes', { n });
    await until(() => onA.length === 50 && onB.length === 50);
    await new Promise((r) => setTimeout(r, 100));

    expect(onA).toHaveLength(50);
    expect(onB).toHaveLength(50);
    const fromA = (list: unknown[]) => list.map((m) => (m as { n: number }).n).filter((n) => n % 2 === 1);
    expect(fromA(onA)).toEqual(fromA(onB));
    expect(new Set(onB.map((m) => (m as { n: number }).n)).size).toBe(50);
    offA();
    offB();
  });

  it('stops delivering after the last handler leaves, and only to subscribed channels', async () => {
    const seen: unknown[] = [];
    const first = b.subscribe('chat', (m) => seen.push(['first', m]));
    const second = b.subscribe('chat', (m) => seen.push(['second', m]));
    await b.settled();
    a.publish('chat', 'hello');
    a.publish('other', 'not for chat');
    await until(() => seen.length === 2);
    first();
    a.publish('chat', 'again');
    await until(() => seen.length === 3);
    second();
    await b.settled();
    a.publish('chat', 'nobody listens');
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([
      ['first', 'hello'],
      ['second', 'hello'],
      ['second', 'again'],
    ]);
  });

  it('keeps runs with another prefix apart', async () => {
    const other = new RedisBus({ url: REDIS_URL!, prefix: `${prefix}other:` });
    const seen: unknown[] = [];
    b.subscribe('status', (m) => seen.push(m));
    await b.settled();
    other.publish('status', 'elsewhere');
    a.publish('status', 'here');
    await until(() => seen.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual(['here']);
    await other.close();
  });
});
