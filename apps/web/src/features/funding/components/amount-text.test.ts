import { describe, expect, it } from 'vitest';
import { formatAmount } from './amount-text';

describe('formatAmount', () => {
  it('keeps at least two decimals', () => {
    expect(formatAmount('250')).toMatch(/^250[.,]00$/);
  });
  it('keeps the significant decimals of a coin amount', () => {
    expect(formatAmount('0.00104500')).toMatch(/^0[.,]001045$/);
  });
  it('shows a placeholder for nothing', () => {
    expect(formatAmount('')).toBe('--');
  });
});
