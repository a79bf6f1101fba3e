import { describe, expect, it } from 'vitest';
import { fromWeek, toWeek, validateWeek, weekIsValid, type Week } from './schedule';

const week = (days: Partial<Record<number, [string, string][]>>): Week =>
  [0, 1, 2, 3, 4, 5, 6].map((d) => (days[d] ?? []).map(([open, close]) => ({ open, close })));

describe('weekly trading schedule', () => {
  it('reads stored sessions into days and writes them back in the same format, day by day in opening order', () => {
    const stored = [
      { day: 1, open: '13:00', close: '24:00' },
      { day: 1, open: '00:00', close: '12:00' },
      { day: 0, open: '22:00', close: '24:00' },
      { day: 5, open: '00:00', close: '21:00' },
    ];
    const w = toWeek(stored);
    expect(w[1]).toEqual([
      { open: '00:00', close: '12:00' },
      { open: '13:00', close: '24:00' },
    ]);
    expect(w[2]).toEqual([]);
    expect(fromWeek(w)).toEqual([
      { day: 0, open: '22:00', close: '24:00' },
      { day: 1, open: '00:00', close: '12:00' },
      { day: 1, open: '13:00', close: '24:00' },
      { day: 5, open: '00:00', close: '21:00' },
    ]);
  });

  it('accepts ranges that close after they open and touch without overlapping; a day with none is closed all day', () => {
    const errors = validateWeek(
      week({
        1: [
          ['00:00', '12:00'],
          ['12:00', '24:00'],
        ],
        2: [['09:30', '17:00']],
      }),
    );
    expect(errors).toEqual({ ranges: [[], [null, null], [null], [], [], [], []], empty: false });
    expect(weekIsValid(errors)).toBe(true);
  });

  it('refuses a close not after its open, overlapping ranges and times that are not HH:MM from 00:00 to 24:00', () => {
    const errors = validateWeek(
      week({
        1: [
          ['10:00', '10:00'],
          ['18:00', '09:00'],
        ],
        2: [
          ['08:00', '12:00'],
          ['11:59', '13:00'],
          ['13:00', '14:00'],
        ],
        3: [
          ['8:00', '12:00'],
          ['24:30', '24:45'],
          ['23:00', '24:01'],
          ['', '10:00'],
        ],
      }),
    );
    expect(errors.ranges[1]).toEqual(['order', 'order']);
    expect(errors.ranges[2]).toEqual(['overlap', 'overlap', null]);
    expect(errors.ranges[3]).toEqual(['time', 'time', 'time', 'time']);
    expect(weekIsValid(errors)).toBe(false);
  });

  it('refuses a week with no hours at all: stored as no schedule, the server would read it as always open', () => {
    const errors = validateWeek(week({}));
    expect(errors.empty).toBe(true);
    expect(weekIsValid(errors)).toBe(false);
  });
});
