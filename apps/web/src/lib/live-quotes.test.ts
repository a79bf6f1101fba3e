import { afterEach, describe, expect, it, vi } from 'vitest';
import { quoteOfPush, receiveDayMarket, setQuoteMarkups, subscribeQuote, useLiveQuotesStore } from './live-quotes';

describe('live quotes', () => {
  it('reads a DAY_MARKET push (PROTOCOL.md) as strings, keeping the market status', () => {
    const parsed = quoteOfPush({
      type: 'DAY_MARKET',
      symbol: 'BTCUSDT',
      quotation: {
        id: 9,
        forex_id: 9,
        open: '94000.00',
        high: '96000.00',
        low: '93000.00',
        close: '95010.00',
        change: '1.07',
        volume: '12',
        amount: '1',
        bid: '95000.00',
        ask: '95020.00',
        market_status: 1,
      },
    });
    expect(parsed).toEqual({
      code: 'BTCUSDT',
      quote: {
        close: '95010.00',
        open: '94000.00',
        high: '96000.00',
        low: '93000.00',
        change: '1.07',
        volume: '12',
        bid: '95000.00',
        ask: '95020.00',
        marketStatus: 1,
        marketReason: undefined,
        // When this browser received it: staleness is judged on the browser's clock.
        receivedAt: expect.any(Number),
      },
    });
    expect(quoteOfPush({ type: 'DAY_MARKET', symbol: 'X' })).toBeNull();
  });

  afterEach(() => vi.unstubAllGlobals());

  it("shows pushed quotes with the account group's markup from trade_list, exactly and at the push's decimals", () => {
    setQuoteMarkups([
      { Code: 'EURUSD', MarkupBid: '0.00001', MarkupAsk: '0.00002' },
      { Code: 'BTCUSDT', MarkupBid: '0', MarkupAsk: '0' },
    ]);
    const push = (symbol: string, bid: string, ask: string) =>
      quoteOfPush({ type: 'DAY_MARKET', symbol, quotation: { close: bid, bid, ask } })!.quote;
    expect(push('EURUSD', '1.08500', '1.08512')).toMatchObject({ bid: '1.08499', ask: '1.08514' });
    expect(push('BTCUSDT', '95000.00', '95020.00')).toMatchObject({ bid: '95000.00', ask: '95020.00' });
    setQuoteMarkups([]);
    expect(push('EURUSD', '1.08500', '1.08512')).toMatchObject({ bid: '1.08500', ask: '1.08512' });
  });

  it('applies the pushes of a frame at once, newest quote per symbol, leaving unmoved symbols as they were', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('document', { visibilityState: 'visible' });
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    const push = (symbol: string, close: string) =>
      receiveDayMarket({ type: 'DAY_MARKET', symbol, quotation: { close, bid: close, ask: close } });
    push('EURUSD', '1.08000');
    push('GBPUSD', '1.27000');
    frames.shift()!(0);
    const eurusd = useLiveQuotesStore.getState().quotes.EURUSD;

    const updates = vi.fn();
    const unsubscribe = useLiveQuotesStore.subscribe(updates);
    const btcTicks = vi.fn();
    const eurTicks = vi.fn();
    const unsubscribeBtc = subscribeQuote('BTCUSDT', btcTicks);
    const unsubscribeEur = subscribeQuote('EURUSD', eurTicks);
    push('BTCUSDT', '95000.00');
    push('BTCUSDT', '95010.00');
    push('BTCUSDT', '95020.00');
    expect(frames).toHaveLength(1);
    expect(useLiveQuotesStore.getState().quotes.BTCUSDT).toBeUndefined();
    frames.shift()!(0);
    // Three pushes within a frame: one store update, one call to BTCUSDT's listeners, none to EURUSD's.
    expect(updates).toHaveBeenCalledTimes(1);
    expect(btcTicks).toHaveBeenCalledTimes(1);
    expect(eurTicks).not.toHaveBeenCalled();
    unsubscribe();
    unsubscribeBtc();
    unsubscribeEur();
    const quotes = useLiveQuotesStore.getState().quotes;
    expect(quotes.BTCUSDT?.close).toBe('95020.00');
    // A row that reads EURUSD sees the same object, so it does not re-render.
    expect(quotes.EURUSD).toBe(eurusd);
  });
});
