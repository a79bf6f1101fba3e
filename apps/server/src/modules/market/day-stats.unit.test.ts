import { describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { RollingDay } from './day-stats.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 18, 0, 0);

describe('rolling 24-hour figures', () => {
  const add = (day: RollingDay, price: string, hoursAfter: number, volume = '1') =>
    day.add(price, dec(price), dec(volume), T0 + hoursAfter * HOUR);

  it('keeps open, high, low and volume over the last 24 hours', () => {
    const day = new RollingDay();
    add(day, '100', 0.5);
    add(day, '120', 5);
    add(day, '90', 12, '4');
    const f = add(day, '105', 23.9);
    expect([f.open, f.high.toString(), f.low.toString(), f.volume.toString()]).toEqual(['100', '120', '90', '7']);
  });

  it('forgets hours older than the window', () => {
    const day = new RollingDay();
    add(day, '100', 0.5);
    add(day, '130', 1.5);
    add(day, '110', 10);
    const f = add(day, '111', 24.2);
    // The bucket of hour 0 has left the window: the 24-hour open is the first price of hour 1.
    expect([f.open, f.high.toString(), f.low.toString(), f.volume.toString()]).toEqual(['130', '130', '110', '3']);
  });

  it('starts from stored hourly bars', () => {
    const day = new RollingDay();
    day.seed([
      { time: T0, open: '1.1', high: '1.3', low: '1.0', close: '1.2', volume: '50' },
      { time: T0 + HOUR, open: '1.2', high: '1.25', low: '1.15', close: '1.2', volume: '25' },
    ]);
    const f = add(day, '1.4', 1.5, '5');
    expect([f.open, f.high.toString(), f.low.toString(), f.volume.toString()]).toEqual(['1.1', '1.4', '1', '80']);
  });

  it('opens a new hour at the price before its first tick', () => {
    const day = new RollingDay();
    const f = day.add('105', dec('105'), dec(1), T0 + 2 * HOUR, '100');
    expect([f.open, f.high.toString(), f.low.toString()]).toEqual(['100', '105', '100']);
  });
});
