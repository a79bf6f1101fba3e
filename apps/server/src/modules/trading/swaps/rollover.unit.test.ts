import { describe, expect, it } from 'vitest';
import { latestCountingRollover, latestRollover, rolloverDays, rolloverOn, rolloversBetween, rolloversDue } from './rollover.ts';

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

  it.each([
    // Clocks go forward on 8 March 2026 at 02:00: Saturday's rollover is still 22:00 UTC, Sunday's is 21:00 UTC.
    {
      from: '2026-03-06T12:00:00Z',
      to: '2026-03-09T23:00:00Z',
      rollovers: ['2026-03-06 22:00 5', '2026-03-07 22:00 6', '2026-03-08 21:00 0', '2026-03-09 21:00 1'],
    },
    // Clocks go back on 1 November 2026: 25 hours from Saturday's rollover to Sunday's.
    { from: '2026-10-31T12:00:00Z', to: '2026-11-02T21:59:59Z', rollovers: ['2026-10-31 21:00 6', '2026-11-01 22:00 0'] },
    // The end is inclusive, the start exclusive.
    { from: '2026-11-24T22:00:00Z', to: '2026-11-25T22:00:00Z', rollovers: ['2026-11-25 22:00 3'] },
    { from: '2026-11-25T22:00:01Z', to: '2026-11-26T21:59:59Z', rollovers: [] },
  ])('between $from and $to: $rollovers', ({ from, to, rollovers }) => {
    const got = rolloversBetween(Date.parse(from), Date.parse(to));
    expect(got.map((r) => `${r.date} ${new Date(r.at).toISOString().slice(11, 16)} ${r.weekday}`)).toEqual(rollovers);
    for (const r of got) expect(rolloverOn(r.date)).toEqual(r);
  });

  const FX = { swapType: 1, swapTripleDay: 3 };
  const CRYPTO = { swapType: 2, swapTripleDay: null };
  const INDEX = { swapType: 2, swapTripleDay: 5 };
  it.each([
    {
      name: 'FX held over Wednesday, never charged: Tuesday, Wednesday x3, Thursday',
      symbol: FX,
      openedAt: '2026-11-24T12:00:00Z',
      swapDate: null,
      now: '2026-11-26T22:30:00Z',
      due: ['2026-11-24 x1', '2026-11-25 x3', '2026-11-26 x1'],
    },
    {
      name: 'FX charged on Tuesday, leader down over Wednesday',
      symbol: FX,
      openedAt: '2026-11-23T12:00:00Z',
      swapDate: '2026-11-24',
      now: '2026-11-26T22:30:00Z',
      due: ['2026-11-25 x3', '2026-11-26 x1'],
    },
    {
      name: 'FX charged on Friday, down over the weekend until Tuesday: no weekend days',
      symbol: FX,
      openedAt: '2026-11-23T12:00:00Z',
      swapDate: '2026-11-27',
      now: '2026-12-01T22:30:00Z',
      due: ['2026-11-30 x1', '2026-12-01 x1'],
    },
    {
      name: 'crypto over the same weekend: every day once',
      symbol: CRYPTO,
      openedAt: '2026-11-23T12:00:00Z',
      swapDate: '2026-11-27',
      now: '2026-12-01T22:30:00Z',
      due: ['2026-11-28 x1', '2026-11-29 x1', '2026-11-30 x1', '2026-12-01 x1'],
    },
    {
      name: 'an index tripled on Friday, over the clocks going back',
      symbol: INDEX,
      openedAt: '2026-10-29T12:00:00Z',
      swapDate: null,
      now: '2026-11-02T21:59:59Z',
      due: ['2026-10-29 x1', '2026-10-30 x3'],
    },
    {
      name: 'opened at the rollover instant: not held over it',
      symbol: FX,
      openedAt: '2026-11-25T22:00:00Z',
      swapDate: null,
      now: '2026-11-25T22:00:05Z',
      due: [],
    },
    {
      name: 'closed 5 s after the rollover',
      symbol: FX,
      openedAt: '2026-11-25T21:00:00Z',
      swapDate: '2026-11-24',
      now: '2026-11-25T22:00:05Z',
      due: ['2026-11-25 x3'],
    },
    {
      name: 'closed 5 s before the rollover',
      symbol: FX,
      openedAt: '2026-11-25T21:00:00Z',
      swapDate: '2026-11-24',
      now: '2026-11-25T21:59:55Z',
      due: [],
    },
    {
      name: 'already charged for the latest rollover',
      symbol: FX,
      openedAt: '2026-11-20T12:00:00Z',
      swapDate: '2026-11-26',
      now: '2026-11-27T21:00:00Z',
      due: [],
    },
    {
      name: 'a symbol without swaps',
      symbol: { swapType: 0, swapTripleDay: 3 },
      openedAt: '2026-11-20T12:00:00Z',
      swapDate: null,
      now: '2026-11-27T23:00:00Z',
      due: [],
    },
  ])('owed: $name', ({ symbol, openedAt, swapDate, now, due }) => {
    const owed = rolloversDue(symbol, { openedAt: new Date(openedAt), swapDate }, Date.parse(now));
    expect(owed.map((d) => `${d.rollover.date} x${d.days}`)).toEqual(due);
  });

  it.each([
    { now: '2026-11-29T23:00:00Z', symbol: FX, date: '2026-11-27' },
    { now: '2026-11-29T23:00:00Z', symbol: CRYPTO, date: '2026-11-29' },
    { now: '2026-11-30T21:00:00Z', symbol: FX, date: '2026-11-27' },
    { now: '2026-11-30T22:00:00Z', symbol: FX, date: '2026-11-30' },
    { now: '2026-11-30T22:00:00Z', symbol: { swapType: 0, swapTripleDay: null }, date: null },
  ])('the latest rollover that counts at $now is $date', ({ now, symbol, date }) => {
    expect(latestCountingRollover(symbol, Date.parse(now))?.date ?? null).toBe(date);
  });
});
