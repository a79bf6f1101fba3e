import { describe, expect, it } from 'vitest';
import { latestRollover, rolloverDays } from './rollover.ts';

describe('the daily rollover at 17:00 New York', () => {
  it.each([
    // Winter (UTC-5): 17:00 New York is 22:00 UTC.
    { now: '2026-11-25T21:59:59Z', date: '2026-11-24', at: '2026-11-24T22:00:00.000Z', weekday: 2 },
    { now: '2026-11-25T22:00:00Z', date: '2026-11-25', at: '2026-11-25T22:00:00.000Z', weekday: 3 },
    { now: '2026-11-26T03:00:00Z', date: '2026-11-25', at: '2026-11-25T22:00:00.000Z', weekday: 3 },
    // Summer (UTC-4): 21:00 UTC.
    { now: '2026-07-01T21:30:00Z', date: '2026-07-01', at: '2026-07-01T21:00:00.000Z', weekday: 3 },
    // The night clocks go back (1 November 2026): the rollover before is still at UTC-4.
    { now: '2026-11-01T05:30:00Z', date: '2026-10-31', at: '2026-10-31T21:00:00.000Z', weekday: 6 },
    { now: '2026-11-01T22:30:00Z', date: '2026-11-01', at: '2026-11-01T22:00:00.000Z', weekday: 0 },
  ])('at $now the latest rollover is $date', ({ now, date, at, weekday }) => {
    const r = latestRollover(Date.parse(now));
    expect({ date: r.date, at: new Date(r.at).toISOString(), weekday: r.weekday }).toEqual({ date, at, weekday });
  });

  it.each([
    { symbol: 'FX, triple Wednesday', swapType: 1, swapTripleDay: 3, days: [0, 1, 1, 3, 1, 1, 0] },
    { symbol: 'index, triple Friday', swapType: 2, swapTripleDay: 5, days: [0, 1, 1, 1, 1, 3, 0] },
    { symbol: 'crypto, no triple day', swapType: 2, swapTripleDay: null, days: [1, 1, 1, 1, 1, 1, 1] },
    { symbol: 'no swaps', swapType: 0, swapTripleDay: 3, days: [0, 0, 0, 0, 0, 0, 0] },
  ])('$symbol counts $days days from Sunday to Saturday', ({ swapType, swapTripleDay, days }) => {
    expect([0, 1, 2, 3, 4, 5, 6].map((w) => rolloverDays({ swapType, swapTripleDay }, w))).toEqual(days);
  });
});
