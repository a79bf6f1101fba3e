import { describe, expect, it } from 'vitest';
import { mt5Figures } from './account-figures';

const detail = {
  balance: '95249.700000',
  lock_balance: '4750.500000',
  equity: '100048.200000',
  float_profit: '48.000000',
  margin: '4750.500000',
  risk_rate: '2106.06',
  prepayment_ratio: '4.75',
  available_prepayment: '95297.700000',
  margin_call: 0 as const,
  margin_call_level: '100',
  stop_out_level: '50',
};

describe('account figures the MT5 way', () => {
  it('shows balance as free cash plus locked margin, so opening a position does not move it', () => {
    expect(mt5Figures(null, detail)).toEqual({
      balance: '100000.200000',
      equity: '100048.200000',
      margin: '4750.500000',
      freeMargin: '95297.700000',
      marginLevel: '2106.06',
      floatingProfit: '48.000000',
    });
  });

  it('prefers the live push, with no margin level while nothing is open', () => {
    const live = { equity: '100000', riskRate: '0', availablePrepayment: '100000', floatingProfit: '0', balance: '100000', lockBalance: '0', margin: '0' };
    expect(mt5Figures(live, detail)).toMatchObject({ balance: '100000.000000', equity: '100000', marginLevel: null, freeMargin: '100000' });
    expect(mt5Figures(null, undefined)).toEqual({});
  });
});
