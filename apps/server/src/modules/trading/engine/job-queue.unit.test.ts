import { describe, expect, it } from 'vitest';
import { UserJobQueue } from './job-queue.ts';

interface Job {
  userId: number;
  kind: 'close' | 'fill';
  n: number;
}

describe('UserJobQueue', () => {
  it('runs one user in order, joins consecutive joinable jobs into one batch, and runs users side by side', async () => {
    const runs: string[] = [];
    let active = 0;
    let peak = 0;
    const queue = new UserJobQueue<Job>(
      async (jobs) => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 5));
        runs.push(jobs.map((j) => `${j.userId}:${j.kind}${j.n}`).join('+'));
        active--;
      },
      4,
      () => undefined,
      (first, next) => first.kind === 'close' && next.kind === 'close',
    );
    // User 1: the first close starts at once; the two closes queued behind it go together, then the fill alone.
    queue.push({ userId: 1, kind: 'close', n: 1 });
    queue.push({ userId: 1, kind: 'close', n: 2 });
    queue.push({ userId: 1, kind: 'close', n: 3 });
    queue.push({ userId: 1, kind: 'fill', n: 4 });
    queue.push({ userId: 2, kind: 'fill', n: 1 });
    await queue.idle();
    expect(runs.filter((r) => r.startsWith('1:'))).toEqual(['1:close1+1:close2+1:close3', '1:fill4']);
    expect(runs).toContain('2:fill1');
    expect(peak).toBe(2);
  });

  it('reports every job of a failed batch and goes on with the next', async () => {
    const failed: number[] = [];
    const done: number[] = [];
    const queue = new UserJobQueue<Job>(
      async (jobs) => {
        if (jobs.some((j) => j.n === 2)) throw new Error('boom');
        done.push(...jobs.map((j) => j.n));
      },
      1,
      (job) => failed.push(job.n),
      (first, next) => first.kind === 'close' && next.kind === 'close',
    );
    queue.push({ userId: 7, kind: 'fill', n: 1 });
    queue.push({ userId: 7, kind: 'close', n: 2 });
    queue.push({ userId: 7, kind: 'close', n: 3 });
    queue.push({ userId: 7, kind: 'fill', n: 4 });
    await queue.idle();
    expect(failed).toEqual([2, 3]);
    expect(done).toEqual([1, 4]);
  });
});
