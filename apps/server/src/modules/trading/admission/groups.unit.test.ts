import { describe, expect, it } from 'vitest';
import { TradeFeeType } from '@tp/contract/constants';
import { dec } from '@tp/contract/decimal';
import type { SymbolInfo } from '../../market/index.ts';
import { esmaCap, type GroupedSymbol, groupFeeOf, groupMarginOf } from './groups.ts';

const eurusd = {
  id: 1,
  code: 'EURUSD',
  categoryKey: 'forex',
  contractSize: dec(100_000),
  marginMode: 1,
  fixedMargin: null,
  feeRate: dec(5),
} as unknown as SymbolInfo;
const grouped = (extra: Partial<GroupedSymbol>): GroupedSymbol =>
  ({ ...eurusd, enabled: true, commission: null, tiers: [], deviationPoints: null, swapFree: false, ...extra }) as GroupedSymbol;

describe('ESMA retail leverage caps', () => {
  it.each([
    { code: 'EURUSD', categoryKey: 'forex', cap: 30 },
    { code: 'USDJPY', categoryKey: 'forex', cap: 30 },
    { code: 'EURGBP', categoryKey: 'forex', cap: 30 },
    { code: 'AUDUSD', categoryKey: 'forex', cap: 20 },
    { code: 'USDTRY', categoryKey: 'forex', cap: 20 },
    { code: 'XAUUSD', categoryKey: 'commodities', cap: 20 },
    { code: 'XAGUSD', categoryKey: 'commodities', cap: 10 },
    { code: 'US500', categoryKey: 'indices', cap: 20 },
    { code: 'JPN225', categoryKey: 'indices', cap: 20 },
    { code: 'HK50', categoryKey: 'indices', cap: 10 },
    { code: 'BTCUSDT', categoryKey: 'crypto', cap: 2 },
    { code: 'AAPL', categoryKey: 'stocks', cap: 5 },
  ])('$code ($categoryKey): 1:$cap', ({ code, categoryKey, cap }) => {
    expect(esmaCap({ code, categoryKey })).toBe(cap);
  });
});

describe('margin over leverage tiers', () => {
  const tiered = grouped({
    tiers: [
      { upTo: dec(1), leverage: 500 },
      { upTo: dec(3), leverage: 100 },
      { upTo: null, leverage: 20 },
    ],
  });
  it.each([
    // 1 lot at 1.1 is 110,000 USD of notional.
    { held: '0', lots: '1', leverage: 200, margin: '550' },
    { held: '0', lots: '2', leverage: 200, margin: '1650' },
    { held: '2', lots: '2', leverage: 200, margin: '6600' },
    { held: '5', lots: '1', leverage: 500, margin: '5500' },
    { held: '0.5', lots: '1', leverage: 1000, margin: '660' },
  ])('$lots lots at 1:$leverage with $held held: $margin', ({ held, lots, leverage, margin }) => {
    expect(groupMarginOf(tiered, dec(lots), dec('1.1'), leverage, dec(1), dec(held)).toString()).toBe(margin);
  });
  it('without tiers, the plain margin', () => {
    expect(groupMarginOf(grouped({}), dec(2), dec('1.1'), 100, dec(1), dec(7)).toString()).toBe('2200');
  });
});

describe("an order's fee under the group's commission", () => {
  it.each([
    { commission: null, fee: '10' },
    { commission: { type: 'per_lot' as const, rate: dec(7) }, fee: '14' },
    // 2 x 100,000 x 1.1 = 220,000 USD: 0.22 million x 30.
    { commission: { type: 'per_million' as const, rate: dec(30) }, fee: '6.6' },
    // 1% of a 2,200 margin.
    { commission: { type: 'percent_of_margin' as const, rate: dec(1) }, fee: '22' },
  ])('$commission.type: $fee', ({ commission, fee }) => {
    expect(groupFeeOf(grouped({ commission }), TradeFeeType.PER_LOT, dec(2), dec(2200), dec('1.1'), dec(1)).toString()).toBe(fee);
  });
});
