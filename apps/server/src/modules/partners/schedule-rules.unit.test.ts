import { describe, expect, it } from 'vitest';
import { lastEndedPeriod, nextPeriodEnd } from './schedule-rules.ts';

/** Scheduled payouts' periods: a week ends on Monday 00:00 UTC, a month on the 1st 00:00 UTC. */
describe('payout periods', () => {
  const table = [
    {
      now: '2026-11-24T09:00:00Z',
      schedule: 'weekly',
      key: 'W2026-11-16',
      endsAt: '2026-11-23T00:00:00.000Z',
      next: '2026-11-30T00:00:00.000Z',
    },
    // Monday at midnight: the week just ended is the one paid.
    {
      now: '2026-11-23T00:00:00Z',
      schedule: 'weekly',
      key: 'W2026-11-16',
      endsAt: '2026-11-23T00:00:00.000Z',
      next: '2026-11-30T00:00:00.000Z',
    },
    // Sunday late: still the week before.
    {
      now: '2026-11-22T23:59:59Z',
      schedule: 'weekly',
      key: 'W2026-11-09',
      endsAt: '2026-11-16T00:00:00.000Z',
      next: '2026-11-23T00:00:00.000Z',
    },
    // Across a year's end.
    {
      now: '2027-01-02T12:00:00Z',
      schedule: 'weekly',
      key: 'W2026-12-21',
      endsAt: '2026-12-28T00:00:00.000Z',
      next: '2027-01-04T00:00:00.000Z',
    },
    {
      now: '2026-11-24T09:00:00Z',
      schedule: 'monthly',
      key: 'M2026-10',
      endsAt: '2026-11-01T00:00:00.000Z',
      next: '2026-12-01T00:00:00.000Z',
    },
    {
      now: '2027-01-01T00:00:00Z',
      schedule: 'monthly',
      key: 'M2026-12',
      endsAt: '2027-01-01T00:00:00.000Z',
      next: '2027-02-01T00:00:00.000Z',
    },
  ] as const;
  it.each(table)('$schedule at $now: $key', (row) => {
    const now = new Date(row.now);
    const period = lastEndedPeriod(row.schedule, now)!;
    expect(period.key).toBe(row.key);
    expect(period.endsAt.toISOString()).toBe(row.endsAt);
    expect(nextPeriodEnd(row.schedule, now)!.toISOString()).toBe(row.next);
  });

  it('has no period when off', () => {
    expect(lastEndedPeriod('off', new Date())).toBeNull();
    expect(nextPeriodEnd('off', new Date())).toBeNull();
  });
});
