import { useEffect, useMemo, useState } from 'react';
import { useQueryParam } from '../../../lib/query-params';
import { useLiveQuotesStore, type LiveQuote } from '../../../lib/live-quotes';
import { useSessionStore } from '../../../lib/session-store';
import { useSocketTopic } from '../../../lib/use-socket';
import { useForexDetail } from '../../../api/get-forex-detail';
import type { TradeSymbol } from '../../../api/get-trade-list';

const SYMBOL_KEY = 'trade-symbol';

/** The symbol in ?symbol=CODE, else the last one traded, else the first of the list. */
export function useSelectedSymbol(symbols: TradeSymbol[] | undefined): TradeSymbol | undefined {
  const wanted = useQueryParam('symbol');
  const symbol = useMemo(() => {
    if (!symbols?.length) return undefined;
    let stored: string | null = null;
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
  open_market: boolean;
}

export function quoteOf(symbol: TradeSymbol, live: LiveQuote | undefined): SymbolQuote {
  const q = symbol.ForexQuotations;
  const status = live?.marketStatus ?? symbol.MarketStatus;
  return {
    last: live?.close || q.Close || symbol.LastPrice,
    open: live?.open || q.Open,
    high: live?.high || q.High,
    low: live?.low || q.Low,
    change: live?.change || q.Change,
    volume: live?.volume || q.Volume,
    bid: live?.bid || q.Bid,
    ask: live?.ask || q.Ask,
    open_market: status === 1,
  };
}

export function useSymbolQuote(symbol: TradeSymbol): SymbolQuote {
  const live = useLiveQuotesStore((state) => state.quotes[symbol.Code]);
  return quoteOf(symbol, live);
}

/** Available prepayment: forexDetail, then every FOREX_TRADE push of the logged-in account. */
export function useAvailablePrepayment(): string | undefined {
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  const detail = useForexDetail(loggedIn);
  const [pushed, setPushed] = useState<string | undefined>();
  useSocketTopic(loggedIn ? 'FOREX_TRADE' : null, (message) => {
    if (typeof message.available_prepayment === 'string') setPushed(message.available_prepayment);
  });
  useEffect(() => setPushed(undefined), [detail.dataUpdatedAt]);
  if (!loggedIn) return undefined;
  return pushed ?? detail.data?.available_prepayment;
}
