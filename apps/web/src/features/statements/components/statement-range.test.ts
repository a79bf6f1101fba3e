import { describe, expect, it } from 'vitest';
import { MAX_DAYS, isoLocalTime, parseDate, presetOf, presetRange, rangeBounds, rangeFromQuery, utcOffsetLabel } from './statement-range';

const today = new Date(2026, 10, 24, 15, 30); // 24 November 2026, local time

describe('statement ranges', () => {
  it('gives the presets on the local calendar', () => {
    expect(presetRange('this_month', today)).toEqual({ from: '2026-11-01', to: '2026-11-24' });
    expect(presetRange('last_month', today)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(presetRange('last_3_months', today)).toEqual({ from: '2026-09-01', to: '2026-11-24' });
    expect(presetRange('this_year', today)).toEqual({ from: '2026-01-01', to: '2026-11-24' });
    expect(presetRange('last_month', new Date(2027, 0, 5))).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(presetRange('last_month', new Date(2028, 2, 10))).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(presetOf({ from: '2026-10-01', to: '2026-10-31' }, today)).toBe('last_month');
    expect(presetOf({ from: '2026-10-02', to: '2026-10-31' }, today)).toBeNull();
  });

  it('sends local midnights: the first day included, the day after the last excluded', () => {
    const check = rangeBounds({ from: '2026-11-01', to: '2026-11-30' });
    expect(check).toEqual({
      ok: true,
      days: 30,
      bounds: { start: new Date(2026, 10, 1).getTime() / 1000, end: new Date(2026, 11, 1).getTime() / 1000 },
    });
    expect(rangeBounds({ from: '2026-11-05', to: '2026-11-05' })).toMatchObject({ ok: true, days: 1 });
  });

  it('refuses a reversed, unreal or longer than a year range', () => {
    expect(rangeBounds({ from: '2026-11-30', to: '2026-11-01' })).toEqual({ ok: false, error: 'range_invalid' });
    expect(rangeBounds({ from: '2026-02-30', to: '2026-03-01' })).toEqual({ ok: false, error: 'range_invalid' });
    expect(rangeBounds({ from: '', to: '2026-03-01' })).toEqual({ ok: false, error: 'range_invalid' });
    expect(rangeBounds({ from: '2028-01-01', to: '2028-12-31' })).toMatchObject({ ok: true, days: MAX_DAYS });
    expect(rangeBounds({ from: '2025-01-01', to: '2026-01-02' })).toEqual({ ok: false, error: 'range_too_long' });
  });

  it('reads the range from the address, this month when it has none', () => {
    expect(rangeFromQuery(new URLSearchParams('from=2026-10-01&to=2026-10-31'), today)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(rangeFromQuery(new URLSearchParams('from=x&to=2026-10-31'), today)).toEqual({ from: '2026-11-01', to: '2026-11-24' });
    expect(parseDate('2026-13-01')).toBeNull();
  });

  it('writes times and the offset the same way in every language', () => {
    const at = new Date(2026, 10, 10, 9, 5, 7).getTime() / 1000;
    expect(isoLocalTime(at)).toBe('2026-11-10 09:05:07');
    expect(utcOffsetLabel()).toMatch(/^UTC[+-]\d{2}:\d{2}$/);
  });
});
