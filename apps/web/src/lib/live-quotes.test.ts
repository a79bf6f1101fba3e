import { describe, expect, it } from 'vitest';
import { quoteOfPush } from './live-quotes';

describe('live quotes', () => {
  it('reads a DAY_MARKET push (PROTOCOL.md) as strings, keeping the market status', () => {
    const parsed = quoteOfPush({
      type: 'DAY_MARKET',
      symbol: 'BTCUSDT',
      quotation: { id: 9, forex_id: 9, open: '94000.00', high: '96000.00', low: '93000.00', close: '95010.00', change: '1.07', volume: '12', amount: '1', bid: '95000.00', ask: '95020.00', market_status: 1 },
    });
    expect(parsed).toEqual({
      code: 'BTCUSDT',
      quote: { close: '95010.00', open: '94000.00', high: '96000.00', low: '93000.00', change: '1.07', volume: '12', bid: '95000.00', ask: '95020.00', marketStatus: 1 },
    });
    expect(quoteOfPush({ type: 'DAY_MARKET', symbol: 'X' })).toBeNull();
  });
});
