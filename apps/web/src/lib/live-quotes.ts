import { WsTopic } from '@tp/contract/constants';
import { useCallback, useEffect, useRef, useSyncExternalStore, type RefObject } from 'react';
import { create } from 'zustand';
import type { ServerMessageOf } from '@tp/contract/pushes';
import { dec } from '@tp/contract/decimal';
import { socket } from './socket';

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

/** Listeners of one symbol's quote: a list row hears its own symbol's ticks, not every symbol's. */
const symbolListeners = new Map<string, Set<() => void>>();

/** Calls `listener` after each frame in which `code`'s quote changed. */
export function subscribeQuote(code: string, listener: () => void): () => void {
  let listeners = symbolListeners.get(code);
  if (!listeners) {
    listeners = new Set();
    symbolListeners.set(code, listeners);
  }
  listeners.add(listener);
  return () => {
    const current = symbolListeners.get(code);
    if (current?.delete(listener) && current.size === 0) symbolListeners.delete(code);
  };
}

function flush(): void {
  scheduled = false;
  const batch = pending;
  pending = {};
  // One store update per frame; only the symbols that moved get a new object.
  useLiveQuotesStore.setState((state) => ({ quotes: { ...state.quotes, ...batch } }));
  // Then only the rows of those symbols are told (React renders them together, in one commit).
  for (const code of Object.keys(batch)) {
    const listeners = symbolListeners.get(code);
    if (listeners) for (const listener of [...listeners]) listener();
  }
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

/** The signed-in account group's spread markup per symbol code (trade_list's MarkupBid and MarkupAsk). */
let markups = new Map<string, { bid: string; ask: string }>();

/** Notes the markups of a trade_list answer: pushed quotes are shown with them, as the caller's orders trade. */
export function setQuoteMarkups(rows: Array<{ Code: string; MarkupBid?: string; MarkupAsk?: string }>): void {
  const next = new Map<string, { bid: string; ask: string }>();
  for (const r of rows) {
    const bid = r.MarkupBid ?? '0';
    const ask = r.MarkupAsk ?? '0';
    if (!dec(bid).isZero() || !dec(ask).isZero()) next.set(r.Code, { bid, ask });
  }
  markups = next;
}

/** `price` moved by `by` (exact), with the decimals it had. */
function shifted(price: string, by: string, sign: 1 | -1): string {
  const places = price.includes('.') ? price.length - price.indexOf('.') - 1 : 0;
  const p = dec(price);
  return (sign > 0 ? p.plus(by) : p.minus(by)).toFixed(places);
}

type DayMarketPush = ServerMessageOf<'DAY_MARKET'>;
/** A DAY_MARKET push (the socket's parser checked it against the contract); partial ones are read as far as they go. */
type DayMarketLike = Pick<DayMarketPush, 'type' | 'symbol'> & { quotation?: Partial<DayMarketPush['quotation']> };

/** Reads one DAY_MARKET push; the newest quote of a symbol within a frame wins. */
export function quoteOfPush(message: DayMarketLike): { code: string; quote: LiveQuote } | null {
  const q = message.quotation;
  if (typeof message.symbol !== 'string' || !q) return null;
  const status = Number(q.market_status);
  const markup = markups.get(message.symbol);
  const bid = q.bid === undefined ? undefined : str(q.bid);
  const ask = q.ask === undefined ? undefined : str(q.ask);
  return {
    code: message.symbol,
    quote: {
      close: str(q.close),
      open: str(q.open),
      high: str(q.high),
      low: str(q.low),
      change: str(q.change),
      volume: str(q.volume),
      bid: bid && markup ? shifted(bid, markup.bid, -1) : bid,
      ask: ask && markup ? shifted(ask, markup.ask, 1) : ask,
      marketStatus: Number.isFinite(status) && status > 0 ? status : undefined,
      marketReason: typeof q.market_status_reason === 'string' ? q.market_status_reason : undefined,
      receivedAt: Date.now(),
    },
  };
}

/** One DAY_MARKET push: kept until the next frame applies every symbol's newest quote at once. */
export function receiveDayMarket(message: DayMarketLike): void {
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

const quoteOf = (code: string | undefined): LiveQuote | undefined => (code ? useLiveQuotesStore.getState().quotes[code] : undefined);

/** One symbol's live quote; the caller re-renders on that symbol's ticks only (at most once a frame). */
export function useLiveQuote(code: string | undefined): LiveQuote | undefined {
  const subscribe = useCallback((onChange: () => void) => (code ? subscribeQuote(code, onChange) : () => {}), [code]);
  return useSyncExternalStore(
    subscribe,
    () => quoteOf(code),
    () => undefined,
  );
}

/**
 * A list row's live quote: the row re-renders on its own symbol's ticks and only while it is on
 * screen (or within a row's height of it). A row scrolled away, or on a kept-alive page that is
 * hidden, keeps what it showed and catches up with the newest quote as soon as it is seen again.
 * Attach the returned ref to the row's element. Being seen or hidden is no state: it re-renders
 * nothing by itself.
 */
export function useRowQuote<T extends Element>(code: string): [RefObject<T | null>, LiveQuote | undefined] {
  const ref = useRef<T>(null);
  const onScreen = useRef(typeof IntersectionObserver === 'undefined');
  const storeChanged = useRef<(() => void) | null>(null);
  const subscribe = useCallback(
    (onChange: () => void) => {
      storeChanged.current = onChange;
      const unsubscribe = subscribeQuote(code, () => {
        if (onScreen.current) onChange();
      });
      return () => {
        storeChanged.current = null;
        unsubscribe();
      };
    },
    [code],
  );
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    return observeRow(node, (visible) => {
      onScreen.current = visible;
      // Back on screen: React re-renders the row only if its quote moved meanwhile.
      if (visible) storeChanged.current?.();
    });
  }, []);
  const quote = useSyncExternalStore(
    subscribe,
    () => quoteOf(code),
    () => undefined,
  );
  return [ref, quote];
}

/** One IntersectionObserver for every row: a callback per observed element. */
let rowObserver: IntersectionObserver | null = null;
const onScreenCallbacks = new WeakMap<Element, (visible: boolean) => void>();

function observeRow(node: Element, callback: (visible: boolean) => void): () => void {
  rowObserver ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) onScreenCallbacks.get(entry.target)?.(entry.isIntersecting);
    },
    { rootMargin: '64px 0px' },
  );
  onScreenCallbacks.set(node, callback);
  rowObserver.observe(node);
  return () => {
    onScreenCallbacks.delete(node);
    rowObserver?.unobserve(node);
  };
}
