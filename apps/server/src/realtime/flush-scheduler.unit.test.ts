import { describe, expect, it } from 'vitest';
import { FlushScheduler, QUIET_DELAY_MS, SLICE_BUDGET_MS } from './flush-scheduler.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Busy work of `ms` milliseconds, as a slow client flush would take. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('flush scheduler', () => {
  it('runs one pass for many requests made before it starts', async () => {
    const flushed: number[] = [];
    const s = new FlushScheduler(
      () => [1, 2, 3],
      (c) => flushed.push(c),
      100,
    );
    for (let i = 0; i < 50; i++) s.request();
    await sleep(QUIET_DELAY_MS + 30);
    expect(flushed).toEqual([1, 2, 3]);
    s.stop();
  });

  it('slices a long pass and lets other work run between the slices', async () => {
    const clients = Array.from({ length: 200 }, (_, i) => i);
    let flushed = 0;
    const s = new FlushScheduler(
      () => clients,
      () => {
        spin(0.2);
        flushed++;
      },
      100,
    );
    const passed = new Promise<number>((resolve) => (s.onPass = resolve));
    let flushedWhenTimerRan = -1;
    s.request();
    // A timer due while the pass (200 clients of 0.2 ms, 40 ms or more) runs gets its turn in the middle of it.
    setTimeout(() => (flushedWhenTimerRan = flushed), QUIET_DELAY_MS + 1);
    const passMs = await passed;
    expect(passMs).toBeGreaterThan(SLICE_BUDGET_MS * 2);
    expect(flushed).toBe(200);
    expect(flushedWhenTimerRan).toBeGreaterThan(0);
    expect(flushedWhenTimerRan).toBeLessThan(200);
    s.stop();
  });

  it('waits longer between passes when passes are long, never beyond the cap', () => {
    const s = new FlushScheduler(
      () => [],
      () => undefined,
      50,
    );
    expect(s.delay()).toBeLessThanOrEqual(QUIET_DELAY_MS);
    (s as unknown as { lastPassMs: number; lastPassEnd: number }).lastPassMs = 30;
    (s as unknown as { lastPassEnd: number }).lastPassEnd = performance.now();
    expect(s.delay()).toBeGreaterThan(20);
    (s as unknown as { lastPassMs: number }).lastPassMs = 500;
    expect(s.delay()).toBeLessThanOrEqual(50);
    s.stop();
  });
});
