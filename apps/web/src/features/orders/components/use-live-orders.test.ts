import type { Order } from '@tp/contract/schemas/trading';
import { describe, expect, it } from 'vitest';
import { figuresOfPush, holdingAfterPush, withoutOrders } from './use-live-orders';

const order = (Id: number) => ({ Id, FactProfits: '1.000000' }) as Order;
const list = { data: [order(3), order(2), order(1)], total: 3, all_fact_profits: '3', balance: '100' };

describe('live order lists', () => {
  it('removes the orders FOREX_CLOSED names', () => {
    const next = withoutOrders(list, new Set([2]))!;
    expect(next.data.map((o) => o.Id)).toEqual([3, 1]);
    expect(next.total).toBe(2);
    expect(withoutOrders(list, new Set([9]))).toBe(list);
  });

  it('replaces the positions with a FOREX_TRADE push, newest first', () => {
    const next = holdingAfterPush(list, [order(1), order(4)], '-2.500000')!;
    expect(next.data.map((o) => o.Id)).toEqual([4, 1]);
    expect(next.all_fact_profits).toBe('-2.500000');
    expect(holdingAfterPush(undefined, [order(1)], '0')).toBeUndefined();
  });

  it('reads the account figures of a push', () => {
    expect(figuresOfPush({ type: 'FOREX_TRADE', equity: '10.000000', HazardRate: '250.00', available_prepayment: '5.000000' })).toMatchObject({
      equity: '10.000000',
      riskRate: '250.00',
      availablePrepayment: '5.000000',
    });
    expect(figuresOfPush({ type: 'FOREX_TRADE' })).toBeNull();
  });
});
