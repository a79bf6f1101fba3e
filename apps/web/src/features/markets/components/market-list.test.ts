// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement, Profiler, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TradeSymbol } from '../../../api/get-trade-list';
import { initI18n } from '../../../lib/i18n';
import { receiveDayMarket } from '../../../lib/live-quotes';
import { FLASH_MS } from '../../../lib/use-price-flash';
import { MarketRow } from './market-list';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const symbol = (id: number, code: string, bid: string): TradeSymbol =>
  ({
    Id: id,
    Code: code,
    ShowCode: code,
    Logo: '',
    MarketStatus: 1,
    PricePrecision: 2,
    ForexQuotations: { Bid: bid, Ask: bid, Close: bid, Change: '0', High: bid, Low: bid, Open: bid },
  }) as unknown as TradeSymbol;

/** IntersectionObserver under test control: `show` says whether a row is on screen. */
class FakeObserver {
  // Kept across tests: the rows share one observer for the life of the module.
  static all: FakeObserver[] = [];
  targets = new Set<Element>();
  constructor(private callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(node: Element) {
    this.targets.add(node);
  }
  unobserve(node: Element) {
    this.targets.delete(node);
  }
  disconnect() {
    this.targets.clear();
  }
  static show(node: Element, visible: boolean) {
    for (const observer of FakeObserver.all)
      if (observer.targets.has(node))
        observer.callback(
          [{ target: node, isIntersecting: visible } as IntersectionObserverEntry],
          observer as unknown as IntersectionObserver,
        );
  }
}

describe('market rows and live quotes', () => {
  let frames: FrameRequestCallback[];
  let root: Root;
  let container: HTMLElement;
  const renders = new Map<string, number>();

  beforeAll(() => initI18n());
  beforeEach(() => {
    frames = [];
    renders.clear();
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    container = document.createElement('ul');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const push = (code: string, bid: string) =>
    receiveDayMarket({ type: 'DAY_MARKET', symbol: code, quotation: { close: bid, bid, ask: bid, change: '0.5' } });
  const nextFrame = () => act(() => frames.shift()?.(0));
  const counted = (code: string, children: ReactNode) =>
    createElement(Profiler, { key: code, id: code, onRender: () => renders.set(code, (renders.get(code) ?? 0) + 1) }, children);

  function renderRows(symbols: TradeSymbol[]) {
    const onStar = () => {};
    act(() =>
      root.render(
        createElement(
          QueryClientProvider,
          { client: new QueryClient() },
          createElement(
            MemoryRouter,
            null,
            symbols.map((s) => counted(s.Code, createElement(MarketRow, { symbol: s, starred: false, onStar }))),
          ),
        ),
      ),
    );
    const rows = new Map(symbols.map((s) => [s.Code, container.querySelector(`[data-code="${s.Code}"]`)!.closest('li')!]));
    act(() => rows.forEach((row) => FakeObserver.show(row, true)));
    renders.clear();
    return rows;
  }

  const bidOf = (row: Element) => row.querySelector('[data-testid="bid"]')!.textContent;

  it('re-renders only the row whose symbol ticked, once per frame however many pushes came', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const rows = renderRows([symbol(1, 'AAAUSD', '10.00'), symbol(2, 'BBBUSD', '20.00')]);

    push('BBBUSD', '20.10');
    push('BBBUSD', '20.20');
    push('BBBUSD', '20.30');
    expect(frames).toHaveLength(1);
    nextFrame();

    expect(bidOf(rows.get('BBBUSD')!)).toBe('20.30');
    expect(renders.get('BBBUSD')).toBe(1);
    // A tick of BBBUSD does not render the row of AAAUSD.
    expect(renders.get('AAAUSD')).toBeUndefined();
    expect(bidOf(rows.get('AAAUSD')!)).toBe('10.00');
    // The price that moved is washed green, and the wash goes after FLASH_MS.
    const bid = rows.get('BBBUSD')!.querySelector('[data-testid="bid"]')!;
    expect(bid.className).toContain('flash-up');
    vi.advanceTimersByTime(FLASH_MS);
    expect(bid.className).not.toContain('flash-');
    push('BBBUSD', '20.00');
    nextFrame();
    expect(bid.className).toContain('flash-down');
  });

  it('leaves a row off screen alone and brings it up to date when it comes back', () => {
    const rows = renderRows([symbol(3, 'CCCUSD', '30.00'), symbol(4, 'DDDUSD', '40.00')]);
    act(() => FakeObserver.show(rows.get('DDDUSD')!, false));
    renders.clear();

    push('DDDUSD', '41.00');
    push('CCCUSD', '31.00');
    nextFrame();
    expect(renders.get('CCCUSD')).toBe(1);
    expect(renders.get('DDDUSD')).toBeUndefined();
    expect(bidOf(rows.get('DDDUSD')!)).toBe('40.00');

    act(() => FakeObserver.show(rows.get('DDDUSD')!, true));
    expect(bidOf(rows.get('DDDUSD')!)).toBe('41.00');
  });
});
