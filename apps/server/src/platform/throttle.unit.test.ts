import { describe, expect, it } from 'vitest';
import { MemoryThrottle } from './throttle.ts';

describe('MemoryThrottle', () => {
  it('allows up to the limit in a window, then answers how long to wait', async () => {
    let now = 1_000_000;
    const th = new MemoryThrottle(() => now);
    for (let i = 0; i < 3; i++) expect(await th.hit('k', 3, 60_000)).toEqual({ allowed: true, retryAfterMs: 0, count: i + 1 });
    expect(await th.hit('k', 3, 60_000)).toEqual({ allowed: false, retryAfterMs: 60_000, count: 4 });
    now += 45_000;
    expect(await th.check('k', 3, 60_000)).toEqual({ allowed: false, retryAfterMs: 15_000 });
    expect(await th.check('other', 3, 60_000)).toEqual({ allowed: true, retryAfterMs: 0 });
    now += 15_000;
    expect(await th.check('k', 3, 60_000)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(await th.hit('k', 3, 60_000)).toEqual({ allowed: true, retryAfterMs: 0, count: 1 });
  });

  it('checks without counting and forgets a key on reset', async () => {
    const th = new MemoryThrottle(() => 0);
    await th.hit('k', 1, 1000);
    expect((await th.check('k', 2, 1000)).allowed).toBe(true);
    expect((await th.check('k', 2, 1000)).allowed).toBe(true);
    await th.hit('k', 2, 1000);
    expect((await th.check('k', 2, 1000)).allowed).toBe(false);
    await th.reset('k');
    expect((await th.check('k', 2, 1000)).allowed).toBe(true);
  });
});
