import { describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import type { TradeSymbol } from '../../../api/get-trade-list';
import { estimateOrder, lotsProblem, quoteToUsdOf, stepLots } from './order-math';

const btc = {
  Code: 'BTCUSDT',
  Pip: '0.01',
  ForexMinCont: '0.01',
  ForexMaxCont: '10',
  ForexContNum: '1',
  MarginMode: 1,
  FixedMargin: null,
  ForexFeeRate: '3',
} as unknown as TradeSymbol;

describe('order estimates', () => {
  it('uses the contract margin and fee formulas with the fee type', () => {
    const perLot = estimateOrder(btc, 1, '0.50', '95000.00', 20, dec(1))!;
    expect(perLot.margin.toFixed(6)).toBe('2375.000000');
    expect(perLot.fee.toFixed(6)).toBe('1.500000');
    const ofMargin = estimateOrder({ ...btc, ForexFeeRate: '0.001' }, 2, '0.50', '95000.00', 20, dec(1))!;
    expect(ofMargin.fee.toFixed(6)).toBe('2.375000');
    expect(estimateOrder(btc, 1, '', '95000', 20, dec(1))).toBeNull();
  });

  it('converts quote currencies to USD at current mids', () => {
    const mids: Record<string, string> = { USDJPY: '150.000', GBPUSD: '1.25000' };
    const mid = (code: string) => mids[code];
    expect(quoteToUsdOf('EURUSD', mid).toString()).toBe('1');
    expect(quoteToUsdOf('BTCUSDT', mid).toString()).toBe('1');
    expect(quoteToUsdOf('EURJPY', mid).mul(150).toFixed(6)).toBe('1.000000');
    expect(quoteToUsdOf('EURGBP', mid).toString()).toBe('1.25');
    expect(quoteToUsdOf('UK100', mid).toString()).toBe('1.25');
  });
});

describe('lots', () => {
  it('steps on the grid within min and max', () => {
    expect(stepLots('0.01', btc, -1)).toBe('0.01');
    expect(stepLots('0.01', btc, 1)).toBe('0.02');
    expect(stepLots('0.015', btc, 1)).toBe('0.02');
    expect(stepLots('0.015', btc, -1)).toBe('0.01');
    expect(stepLots('10', btc, 1)).toBe('10.00');
    expect(stepLots('', btc, 1)).toBe('0.02');
  });

  it('names what is wrong with a quantity', () => {
    expect(lotsProblem('', btc)).toBe('required');
    expect(lotsProblem('0.001', btc)).toBe('min');
    expect(lotsProblem('11', btc)).toBe('max');
    expect(lotsProblem('0.015', btc)).toBe('step');
    expect(lotsProblem('abc', btc)).toBe('step');
    expect(lotsProblem('0.05', btc)).toBeNull();
  });
});
