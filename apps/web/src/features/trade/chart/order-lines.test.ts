import type { Order } from '@tp/contract/schemas/trading';
import { describe, expect, it } from 'vitest';
import { linesOf } from './order-lines';

const order = (fields: Partial<Order>) =>
  ({ Status: 1, OrderType: 1, Price: '95020.00', OriginPrice: '0', TargetProfitPrice: '0', TargetLossPrice: '0', ...fields }) as Order;

describe('order lines', () => {
  it('a position draws its entry, and its TP and SL only when set', () => {
    expect(linesOf(order({}))).toEqual([{ kind: 'entry', price: '95020.00' }]);
    expect(linesOf(order({ TargetProfitPrice: '96000.00', TargetLossPrice: '94000.00' }))).toEqual([
      { kind: 'entry', price: '95020.00' },
      { kind: 'tp', price: '96000.00' },
      { kind: 'sl', price: '94000.00' },
    ]);
    expect(linesOf(order({ TargetProfitPrice: '', TargetLossPrice: '0.00' }))).toHaveLength(1);
  });

  it('a pending order draws its target price instead of an entry', () => {
    expect(linesOf(order({ Status: 0, OriginPrice: '94800.00', TargetLossPrice: '94000.00' }))).toEqual([
      { kind: 'pending', price: '94800.00' },
      { kind: 'sl', price: '94000.00' },
    ]);
  });
});
