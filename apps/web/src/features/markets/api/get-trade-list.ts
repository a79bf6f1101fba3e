import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TradeListRow } from '@tp/contract/schemas/market';
import { apiGet } from '../../../lib/api-client';

/** A trade_list row (PROTOCOL.md, Shapes). */
export type TradeSymbol = TradeListRow;

export const tradeListQueryKey = ['forex', 'trade_list'] as const;

export async function getTradeList(searchCurrency?: string, signal?: AbortSignal): Promise<TradeSymbol[]> {
  const data = await apiGet<TradeSymbol[] | null>(
    '/v1/api/forex/trade_list',
    { searchCurrency: searchCurrency || undefined },
    { signal, showErrorMessage: false },
  );
  return Array.isArray(data) ? data : [];
}

export const getTradeListQueryOptions = (searchCurrency?: string) =>
  queryOptions({
    queryKey: [...tradeListQueryKey, searchCurrency ?? ''],
    queryFn: ({ signal }) => getTradeList(searchCurrency, signal),
  });

export const useTradeList = (searchCurrency?: string) => useQuery(getTradeListQueryOptions(searchCurrency));
