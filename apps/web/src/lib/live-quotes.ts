import { WsTopic } from '@tp/contract/constants';
import { useEffect } from 'react';
import { create } from 'zustand';
import { socket, type SocketMessage } from './socket';

/** The newest DAY_MARKET quotation of one symbol (PROTOCOL.md), as decimal strings. */
export interface LiveQuote {
  close: string;
  open: string;
  high: string;
  low: string;
  change: string;
  volume: string;
  bid?: string;
  ask?: string;
  /** 1 open, 2 closed; absent when the push did not say. */
  marketStatus?: number;
  /** Why it is closed (a MarketStatusReason such as `stale`), when the push said. */
  marketReason?: string;
  /** When this browser received it (epoch ms): the quote's age is measured on this clock, not the server's. */
  receivedAt?: number;
}

interface LiveQuotesState {
  quotes: Record<string, LiveQuote>;
}

/** Live quotes by symbol code, fed by DAY_MARKET while a screen listens (home, trade, terminal). */
export const useLiveQuotesStore = create<LiveQuotesState>()(() => ({ quotes: {} }));

let pending: Record<string, LiveQuote> = {};
let scheduled = false;

function flush(): void {
  scheduled = false;
  const batch = pending;
  pending = {};
  // Only the symbols that moved get a new object, so only their memoized rows re-render.
  useLiveQuotesStore.setState((state) => ({ quotes: { ...state.quotes, ...batch } }));
}

/** Applies the pushes received since the last frame at the next animation frame (a hidden tab: a timer). */
function scheduleFlush(): void {
  if (scheduled) return;
  scheduled = true;
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') {
    requestAnimationFrame(flush);
  } else setTimeout(flush, 250);
}

const str = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** Parses one DAY_MARKET push; the newest quote of a symbol within a frame wins. */
export function quoteOfPush(message: SocketMessage): { code: string; quote: LiveQuote } | null {
  const q = message.quotation as Record<string, unknown> | undefined;
  if (typeof message.symbol !== 'string' || !q) return null;
  const status = Number(q.market_status);
  return {
    code: message.symbol,
    quote: {
      close: str(q.close),
      open: str(q.open),
      high: str(q.high),
      low: str(q.low),
      change: str(q.change),
      volume: str(q.volume),
      bid: q.bid === undefined ? undefined : str(q.bid),
      ask: q.ask === undefined ? undefined : str(q.ask),
      marketStatus: Number.isFinite(status) && status > 0 ? status : undefined,
      marketReason: typeof q.market_status_reason === 'string' ? q.market_status_reason : undefined,
      receivedAt: Date.now(),
    },
  };
}

/** One DAY_MARKET push: kept until the next frame applies every symbol's newest quote at once. */
export function receiveDayMarket(message: SocketMessage): void {
  const parsed = quoteOfPush(message);
  if (!parsed) return;
  pending[parsed.code] = parsed.quote;
  // Quotes arrive many times a second per symbol; screens apply them at most once per frame.
  scheduleFlush();
}

/** Keeps the DAY_MARKET subscription open while the calling component is mounted and `active`. */
export function useLiveQuotesFeed(active = true): void {
  useEffect(() => {
    if (!active) return;
    let unsubscribe: (() => void) | null = null;
    // Quotes start once the first screen is drawn, so the stream never delays the first paint.
    const start = () => {
      unsubscribe = socket.subscribe(WsTopic.DAY_MARKET, receiveDayMarket);
    };
    const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(start, { timeout: 1000 }) : null;
    const timer = idle === null ? setTimeout(start, 0) : null;
    return () => {
      if (idle !== null) cancelIdleCallback(idle);
      if (timer !== null) clearTimeout(timer);
      unsubscribe?.();
    };
  }, [active]);
}

export const useLiveQuote = (code: string | undefined): LiveQuote | undefined =>
  useLiveQuotesStore((state) => (code ? state.quotes[code] : undefined));
