import { describe, expect, it } from 'vitest';
import { seedSymbols } from '../../platform/db/seed-data.ts';
import { isMarketOpen, localTimeOf, type TradingHours } from './market-hours.ts';

const hoursOf = (code: string): TradingHours => {
  const s = seedSymbols.find((x) => x.code === code)!;
  return { timezone: s.timezone!, schedule: s.schedule!, holidays: s.holidays! };
};
const utc = (iso: string) => Date.parse(`${iso}Z`);

describe('market hours', () => {
  const fx = hoursOf('EURUSD');

  it('reads local weekday, time and date in a time zone, across DST', () => {
    expect(localTimeOf('America/New_York', utc('2026-11-22T22:00:00'))).toEqual({ day: 0, minutes: 17 * 60, date: '2026-11-22' });
    expect(localTimeOf('America/New_York', utc('2026-07-12T21:00:00'))).toEqual({ day: 0, minutes: 17 * 60, date: '2026-07-12' });
    expect(localTimeOf('Asia/Tokyo', utc('2026-11-20T23:30:00'))).toEqual({ day: 6, minutes: 8 * 60 + 30, date: '2026-11-21' });
    // US DST ends 1 Nov 2026 at 02:00 EDT (06:00 UTC): 05:59 UTC is 01:59 EDT, 06:00 UTC is 01:00 EST.
    expect(localTimeOf('America/New_York', utc('2026-11-01T05:59:00')).minutes).toBe(60 + 59);
    expect(localTimeOf('America/New_York', utc('2026-11-01T06:00:00')).minutes).toBe(60);
  });

  it('opens forex Sunday 17:00 New York and closes it Friday 17:00, all Saturday closed', () => {
    // November: New York is UTC-5.
    expect(isMarketOpen(fx, utc('2026-11-22T21:59:00'))).toBe(false);
    expect(isMarketOpen(fx, utc('2026-11-22T22:00:00'))).toBe(true);
    expect(isMarketOpen(fx, utc('2026-11-25T12:00:00'))).toBe(true);
    expect(isMarketOpen(fx, utc('2026-11-20T21:59:00'))).toBe(true);
    expect(isMarketOpen(fx, utc('2026-11-20T22:00:00'))).toBe(false);
    expect(isMarketOpen(fx, utc('2026-11-21T12:00:00'))).toBe(false);
    // July: New York is UTC-4, so Sunday 17:00 is 21:00 UTC.
    expect(isMarketOpen(fx, utc('2026-07-12T20:59:00'))).toBe(false);
    expect(isMarketOpen(fx, utc('2026-07-12T21:00:00'))).toBe(true);
  });

  it('keeps markets closed on holidays in their own time zone', () => {
    const us30 = hoursOf('US30');
    // Thanksgiving, Thursday 26 Nov 2026: closed all day in New York, open the days around it.
    expect(isMarketOpen(us30, utc('2026-11-26T15:00:00'))).toBe(false);
    expect(isMarketOpen(us30, utc('2026-11-27T04:59:00'))).toBe(false);
    expect(isMarketOpen(us30, utc('2026-11-25T15:00:00'))).toBe(true);
    expect(isMarketOpen(us30, utc('2026-11-27T15:00:00'))).toBe(true);
    expect(isMarketOpen(fx, utc('2026-12-25T15:00:00'))).toBe(false);
    expect(isMarketOpen(fx, utc('2026-11-26T15:00:00'))).toBe(true);
  });

  it('honours daily breaks, local sessions and sessions past midnight', () => {
    const oil = hoursOf('USOIL');
    expect(isMarketOpen(oil, utc('2026-11-24T22:30:00'))).toBe(false); // 17:30 New York: daily break
    expect(isMarketOpen(oil, utc('2026-11-24T23:00:00'))).toBe(true); // 18:00 New York
    const ger = hoursOf('GER40');
    expect(isMarketOpen(ger, utc('2026-11-24T06:59:00'))).toBe(false); // 07:59 Berlin
    expect(isMarketOpen(ger, utc('2026-11-24T07:00:00'))).toBe(true); // 08:00 Berlin
    expect(isMarketOpen(ger, utc('2026-11-24T21:00:00'))).toBe(false); // 22:00 Berlin
    const jpn = hoursOf('JPN225');
    expect(isMarketOpen(jpn, utc('2026-11-20T20:00:00'))).toBe(true); // Saturday 05:00 Tokyo: Friday's session
    expect(isMarketOpen(jpn, utc('2026-11-20T21:00:00'))).toBe(false); // Saturday 06:00 Tokyo
  });

  it('keeps crypto (empty schedule) always open', () => {
    const btc = hoursOf('BTCUSDT');
    for (const at of ['2026-11-21T12:00:00', '2026-12-25T00:00:00', '2027-01-01T00:00:00']) expect(isMarketOpen(btc, utc(at))).toBe(true);
  });
});
