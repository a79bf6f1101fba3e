import { describe, expect, it } from 'vitest';
import { profitPoints } from './order-points';

describe('profitPoints', () => {
  it("counts points in the position's favour for a buy and a sell", () => {
    expect(profitPoints(1, '95020.00', '95500.00', 2)).toBe('48000');
    expect(profitPoints(2, '95020.00', '95500.00', 2)).toBe('-48000');
    expect(profitPoints(2, '1.10500', '1.10350', 5)).toBe('150');
    expect(profitPoints(1, '1.10500', '1.10350', 5)).toBe('-150');
  });

  it('is 0 without a move and null while a price is missing', () => {
    expect(profitPoints(1, '1.10500', '1.10500', 5)).toBe('0');
    expect(profitPoints(2, '1.10500', '1.10500', 5)).toBe('0');
    expect(profitPoints(1, '0', '1.1', 5)).toBeNull();
    expect(profitPoints(1, '1.1', '', 5)).toBeNull();
    expect(profitPoints(1, 'abc', '1.1', 5)).toBeNull();
  });

  it("rounds a price finer than the symbol's precision to whole points", () => {
    expect(profitPoints(1, '1.10000', '1.100015', 5)).toBe('2');
    expect(profitPoints(1, '1.10000', '1.100025', 5)).toBe('2');
  });
});
