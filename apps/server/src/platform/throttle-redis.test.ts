import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { redisClient } from './redis-bus.ts';
import { RedisThrottle } from './throttle.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('throttle-redis.test.ts skipped: set REDIS_URL (e.g. redis://127.0.0.1:6379) to run it');

describe.skipIf(!REDIS_URL)('RedisThrottle', () => {
  const prefix = `test:${randomBytes(4).toString('hex')}:`;
  const clients = REDIS_URL ? [redisClient(REDIS_URL), redisClient(REDIS_URL)] : [];
  afterAll(async () => {
    for (const c of clients) await c.quit();
  });

  it('counts one window across servers, then lets events through after it', async () => {
    const [serverA, serverB] = clients.map((c) => new RedisThrottle(c, prefix)) as [RedisThrottle, RedisThrottle];
    for (let i = 0; i < 3; i++)
      expect(await (i % 2 ? serverA : serverB).hit('login:x', 3, 400)).toEqual({ allowed: true, retryAfterMs: 0, count: i + 1 });
    const refused = await serverA.hit('login:x', 3, 400);
    expect(refused.allowed).toBe(false);
    expect(refused.count).toBe(4);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(400);
    expect((await serverB.check('login:x', 3, 400)).allowed).toBe(false);
    expect((await serverB.check('login:other', 3, 400)).allowed).toBe(true);
    await new Promise((r) => setTimeout(r, refused.retryAfterMs + 20));
    expect(await serverB.check('login:x', 3, 400)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(await serverB.hit('login:x', 3, 400)).toEqual({ allowed: true, retryAfterMs: 0, count: 1 });
  });

  it('checks without counting and forgets a key on reset', async () => {
    const [serverA, serverB] = clients.map((c) => new RedisThrottle(c, prefix)) as [RedisThrottle, RedisThrottle];
    await serverA.hit('k', 1, 10_000);
    expect((await serverB.check('k', 2, 10_000)).allowed).toBe(true);
    expect((await serverB.check('k', 2, 10_000)).allowed).toBe(true);
    await serverB.hit('k', 2, 10_000);
    const state = await serverA.check('k', 2, 10_000);
    expect(state.allowed).toBe(false);
    expect(state.retryAfterMs).toBeGreaterThan(9_000);
    await serverB.reset('k');
    expect((await serverA.check('k', 2, 10_000)).allowed).toBe(true);
  });
});
