import { describe, expect, it } from 'vitest';
import { FlushScheduler, QUIET_DELAY_MS, REST_SHARE, SLICE_BUDGET_MS } from './flush-scheduler.ts';

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

  it('paces a long pass: rests after each slice for REST_SHARE of its time, so its writes spread over more than its work', async () => {
    const clients = Array.from({ length: 200 }, (_, i) => i);
    const s = new FlushScheduler(
      () => clients,
      () => spin(0.2),
      100,
    );
    const passed = new Promise<number>((resolve) => (s.onPass = resolve));
    s.request();
    // 200 clients of 0.2 ms: 40 ms of work, in slices of SLICE_BUDGET_MS with a rest of REST_SHARE of a slice after each.
    const passMs = await passed;
    expect(passMs).toBeGreaterThan(40 * (1 + REST_SHARE) * 0.9);
    expect(passMs).toBeLessThan(1000);
    s.stop();
  });

  it('starts the next pass a few ms after the last one, never later than the quiet delay', () => {
    const s = new FlushScheduler(
      () => [],
      () => undefined,
      50,
    );
    expect(s.delay()).toBeLessThanOrEqual(QUIET_DELAY_MS);
    (s as unknown as { lastPassEnd: number }).lastPassEnd = performance.now();
    expect(s.delay()).toBeGreaterThan(0);
    expect(s.delay()).toBeLessThanOrEqual(QUIET_DELAY_MS);
    s.stop();
  });
});
