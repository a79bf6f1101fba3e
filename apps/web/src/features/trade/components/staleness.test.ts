import { describe, expect, it } from 'vitest';
import type { TradeSymbol } from '../../../api/get-trade-list';
import { quoteOf, staleness } from './use-trade-data';

const NOW = 1_800_000_000_000;

describe('staleness of a symbol’s prices', () => {
  it.each([
    ['live connection, quote 2 s old, limit 3 s', false, 2_000, 3, null],
    ['live connection, quote 3.5 s old, limit 3 s', false, 3_500, 3, 'old'],
    ['connection down, fresh quote', true, 0, 60, 'offline'],
    ['connection down, old quote', true, 120_000, 60, 'offline'],
  ] as const)('%s: %s', (_case, down, age, limit, expected) => {
    expect(staleness(down, NOW - age, limit, NOW)).toBe(expected);
  });

  it('a market the server paused for a stale quote is stale, not closed for the hours', () => {
    const symbol = {
      MarketStatus: 2,
      MarketStatusReason: 'stale',
      LastPrice: '1',
      ForexQuotations: { Close: '1', Open: '1', High: '1', Low: '1', Change: '0', Volume: '0', Bid: '1', Ask: '1' },
    } as unknown as TradeSymbol;
    expect(quoteOf(symbol, undefined)).toMatchObject({ open_market: false, stale: 'old' });
    expect(quoteOf({ ...symbol, MarketStatusReason: 'closed' } as unknown as TradeSymbol, undefined)).toMatchObject({ open_market: false, stale: null });
    expect(quoteOf(symbol, { close: '1', open: '1', high: '1', low: '1', change: '0', volume: '0', marketStatus: 1 })).toMatchObject({
      open_market: true,
      stale: null,
    });
  });
});
