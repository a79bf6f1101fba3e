import { describe, expect, it } from 'vitest';
import { sparklinePoints } from './sparkline';

describe('sparkline', () => {
  it('scales a series into the box, lowest value at the bottom', () => {
    expect(sparklinePoints([1, 3, 2], 10, 10)).toBe('0.0,9.0 5.0,1.0 10.0,5.0');
    expect(sparklinePoints([5], 10, 10)).toBe('');
    expect(sparklinePoints([2, 2], 10, 10)).toBe('0.0,9.0 10.0,9.0');
  });
});
