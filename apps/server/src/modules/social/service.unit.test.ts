import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../../context.ts';
import { rankingRows } from './repository.ts';
import { RANKING_CACHE_MS, SocialService } from './service.ts';

// The ranking's reads (closed orders through trading's read model, users through auth's) are one
// computation here, answered when the test releases it: what is under test is the cache around it.
vi.mock('./repository.ts', () => ({ rankingRows: vi.fn() }));

const row = (user: string, profit: string) => ({
  user_id: 1,
  display_name: user,
  email: null,
  mobile: null,
  uid: '1',
  profit,
  margin: '100',
  trades: 1,
  wins: 1,
  multiple: 10,
  show_code: 'EUR/USD',
  total_profit: profit,
  total_margin: '100',
  total_trades: 1,
});

/** A ranking computation that answers `answers` in turn, each when released. */
function fakeContext(answers: string[]) {
  const releases: (() => void)[] = [];
  let calls = 0;
  const execute = vi.mocked(rankingRows);
  execute.mockReset();
  execute.mockImplementation(() => {
    const user = answers[Math.min(calls++, answers.length - 1)]!;
    return new Promise((resolve) => releases.push(() => resolve([row(user, '5')] as never)));
  });
  const ctx = { db: {}, services: { market: { symbol: () => undefined } }, log: { error: vi.fn() } } as unknown as AppContext;
  // The copy-trading figures added to each row (followers, provider opt-in, the closed-trade curve) are read with the rows: none here.
  vi.spyOn(SocialService.prototype as unknown as { extras: () => Promise<unknown> }, 'extras').mockResolvedValue(() => ({
    followers: 0,
    copyable: false,
    curve: undefined,
  }));
  return { ctx, execute, release: () => releases.shift()!() };
}

describe('ranking cache', () => {
  afterEach(() => vi.useRealTimers());

  it('computes once for concurrent requests, then serves the cache for a minute', async () => {
    const { ctx, execute, release } = fakeContext(['first']);
    const social = new SocialService(ctx);
    const a = social.ranking({ page: 1, limit: 10 });
    const b = social.ranking({ page: 1, limit: 10 });
    release();
    expect((await a).data[0]!.user).toBe('first');
    expect((await b).data[0]).toMatchObject({ user: 'first', three_week_rate: '5.00' });
    await social.ranking({ page: 1, limit: 10 });
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('after a minute answers the stale list at once and refreshes in the background', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { ctx, execute, release } = fakeContext(['old', 'new']);
    const social = new SocialService(ctx);
    const first = social.ranking({ page: 1, limit: 10 });
    release();
    await first;
    vi.setSystemTime(Date.now() + RANKING_CACHE_MS + 1);
    expect((await social.ranking({ page: 1, limit: 10 })).data[0]!.user).toBe('old');
    expect((await social.ranking({ page: 1, limit: 10 })).data[0]!.user).toBe('old');
    expect(execute).toHaveBeenCalledTimes(2);
    release();
    await vi.waitFor(async () => expect((await social.ranking({ page: 1, limit: 10 })).data[0]!.user).toBe('new'));
    expect(execute).toHaveBeenCalledTimes(2);
  });
});
