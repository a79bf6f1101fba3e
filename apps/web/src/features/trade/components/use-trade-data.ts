import { useEffect, useMemo, useState } from 'react';
import { useQueryParam } from '../../../lib/query-params';
import { useLiveQuote, type LiveQuote } from '../../../lib/live-quotes';
import { useSessionStore } from '../../../lib/session-store';
import { socket } from '../../../lib/socket';
import { useSocketStatus, useSocketTopic } from '../../../lib/use-socket';
import { useForexDetail } from '../../../api/get-forex-detail';
import type { TradeSymbol } from '../../../api/get-trade-list';

const SYMBOL_KEY = 'trade-symbol';

/** The symbol in ?symbol=CODE, else the last one traded, else the first of the list. */
export function useSelectedSymbol(symbols: TradeSymbol[] | undefined): TradeSymbol | undefined {
  const wanted = useQueryParam('symbol');
  const symbol = useMemo(() => {
    if (!symbols?.length) return undefined;
    let stored: string | null;
    try {
      stored = localStorage.getItem(SYMBOL_KEY);
    } catch {
      stored = null;
    }
    const byCode = (code: string | null) => (code ? symbols.find((s) => s.Code === code) : undefined);
    return byCode(wanted) ?? byCode(stored) ?? symbols[0];
  }, [symbols, wanted]);
  useEffect(() => {
    if (!symbol) return;
    try {
      localStorage.setItem(SYMBOL_KEY, symbol.Code);
    } catch {
      // Without storage the choice lasts for this visit only.
    }
  }, [symbol]);
  return symbol;
}

/** Price figures of a symbol: the live quote when one arrived, else the trade_list snapshot. */
export interface SymbolQuote {
  last: string;
  open: string;
  high: string;
  low: string;
  change: string;
  volume: string;
  bid: string;
  ask: string;
  /** Open for trading: the market is open and staff have not made the symbol not tradable. */
  open_market: boolean;
  /** Staff made the symbol not tradable (Tradable 0): shown closed whatever its hours. */
  halted: boolean;
  /** Why the prices may not be current: the live connection is down, or the last quote is older than the symbol's MaxQuoteAge. */
  stale: 'offline' | 'old' | null;
}

export function quoteOf(symbol: TradeSymbol, live: LiveQuote | undefined): SymbolQuote {
  const q = symbol.ForexQuotations;
  const status = live?.marketStatus ?? symbol.MarketStatus;
  const reason = live?.marketStatus !== undefined ? live.marketReason : symbol.MarketStatusReason;
  const halted = symbol.Tradable === 0;
  return {
    last: live?.close || q.Close || symbol.LastPrice,
    open: live?.open || q.Open,
    high: live?.high || q.High,
    low: live?.low || q.Low,
    change: live?.change || q.Change,
    volume: live?.volume || q.Volume,
    bid: live?.bid || q.Bid,
    ask: live?.ask || q.Ask,
    open_market: status === 1 && !halted,
    halted,
    // The server paused trading because the feed went quiet: that is staleness, not a closed market.
    stale: !halted && status !== 1 && reason === 'stale' ? 'old' : null,
  };
}

/** Staleness of a quote last heard at `lastHeard` (epoch ms), against the symbol's MaxQuoteAge (seconds). */
export function staleness(socketDown: boolean, lastHeard: number, maxQuoteAgeSec: number, now: number): SymbolQuote['stale'] {
  if (socketDown) return 'offline';
  return now - lastHeard > maxQuoteAgeSec * 1000 ? 'old' : null;
}

/** A clock that ticks once a second while mounted, so a quote turns stale without a new push. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function useSymbolQuote(symbol: TradeSymbol): SymbolQuote {
  const live = useLiveQuote(symbol.Code);
  const status = useSocketStatus();
  const now = useNow();
  // Before any push of this symbol arrives, its age counts from when the screen showed it.
  const [shownAt] = useState(() => Date.now());
  const lastHeard = Math.max(live?.receivedAt ?? 0, shownAt);
  const down = status !== 'open' && socket.down;
  const quote = quoteOf(symbol, live);
  // A closed market's prices are old by nature; only a lost connection or the server's own verdict counts then.
  const local = quote.open_market || down ? staleness(down, lastHeard, symbol.MaxQuoteAge, now) : null;
  return { ...quote, stale: local ?? quote.stale };
}

/** Available prepayment: forexDetail, then every FOREX_TRADE push of the logged-in account. */
export function useAvailablePrepayment(): string | undefined {
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  const detail = useForexDetail(loggedIn);
  const [pushed, setPushed] = useState<string | undefined>();
  useSocketTopic(loggedIn ? 'FOREX_TRADE' : null, (message) => {
    setPushed(message.available_prepayment);
  });
  useEffect(() => setPushed(undefined), [detail.dataUpdatedAt]);
  if (!loggedIn) return undefined;
  return pushed ?? detail.data?.available_prepayment;
}
