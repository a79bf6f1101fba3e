import { describe, expect, it } from 'vitest';
import { derivedPendingType, pendingProblem, type PendingChoice } from './pending-types';

const quote = { bid: '95000.00', ask: '95020.00' };
const BUY = 1;
const SELL = 2;
const choice = (over: Partial<PendingChoice>): PendingChoice => ({ type: 'auto', expireType: 0, expireAt: '', ...over });

describe('pending order types', () => {
  it.each([
    [BUY, '90000', 'buy_limit'],
    [BUY, '96000', 'buy_stop'],
    [SELL, '96000', 'sell_limit'],
    [SELL, '90000', 'sell_stop'],
    [BUY, '', null],
  ] as const)('side %i at %s is %s', (side, price, type) => {
    expect(derivedPendingType(side, price, quote)).toBe(type);
  });

  it('refuses a type of the other side, a type the price contradicts and an expiry in the past', () => {
    const now = Date.parse('2026-11-24T10:00:00');
    expect(pendingProblem(choice({ type: 'buy_limit' }), SELL, '90000', quote, now)).toBe('pending_side');
    expect(pendingProblem(choice({ type: 'buy_limit' }), BUY, '96000', quote, now)).toBe('pending_type_price');
    expect(pendingProblem(choice({ type: 'buy_limit' }), BUY, '90000', quote, now)).toBeNull();
    expect(pendingProblem(choice({ expireType: 2, expireAt: '2026-11-24T09:00' }), BUY, '90000', quote, now)).toBe('expiry_past');
    expect(pendingProblem(choice({ expireType: 2, expireAt: '' }), BUY, '90000', quote, now)).toBe('expiry_past');
    expect(pendingProblem(choice({ expireType: 2, expireAt: '2026-11-25T09:00' }), BUY, '90000', quote, now)).toBeNull();
  });
});
