import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { tradeList } from '@tp/contract/endpoints/market';
import { call, queryKey } from '../lib/api-client';
import { setQuoteMarkups } from '../lib/live-quotes';

/** A trade_list row (PROTOCOL.md, Shapes). */
export type TradeSymbol = OutputOf<typeof tradeList>[number];

/** Every trade_list query (all searches): the home list and the trade screen share the unfiltered one. */
export const tradeListQueryKey = queryKey(tradeList);

export const getTradeList = async (searchCurrency?: string, signal?: AbortSignal) => {
  const rows = await call(tradeList, { searchCurrency: searchCurrency || undefined }, { signal, showErrorMessage: false });
  // The caller's group's markups: live quotes are shown at the prices the caller trades on.
  if (!searchCurrency) setQuoteMarkups(rows);
  return rows;
};

export const getTradeListQueryOptions = (searchCurrency?: string) =>
  queryOptions({
    queryKey: queryKey(tradeList, searchCurrency ? { searchCurrency } : undefined),
    queryFn: ({ signal }) => getTradeList(searchCurrency, signal),
  });

export const useTradeList = (searchCurrency?: string) => useQuery(getTradeListQueryOptions(searchCurrency));
