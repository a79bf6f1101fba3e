import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { tradeList } from '@tp/contract/endpoints/market';
import { call, queryKey } from '../lib/api-client';

/** A trade_list row (PROTOCOL.md, Shapes). */
export type TradeSymbol = OutputOf<typeof tradeList>[number];

/** Every trade_list query (all searches): the home list and the trade screen share the unfiltered one. */
export const tradeListQueryKey = queryKey(tradeList);

export const getTradeList = (searchCurrency?: string, signal?: AbortSignal) =>
  call(tradeList, { searchCurrency: searchCurrency || undefined }, { signal, showErrorMessage: false });

export const getTradeListQueryOptions = (searchCurrency?: string) =>
  queryOptions({
    queryKey: queryKey(tradeList, searchCurrency ? { searchCurrency } : undefined),
    queryFn: ({ signal }) => getTradeList(searchCurrency, signal),
  });

export const useTradeList = (searchCurrency?: string) => useQuery(getTradeListQueryOptions(searchCurrency));
