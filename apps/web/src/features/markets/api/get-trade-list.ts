import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

/** The fields of a trade_list row the market list reads (PROTOCOL.md, Shapes). */
export interface TradeSymbol {
  Id: number;
  Code: string;
  ShowCode: string;
  Logo?: string;
  CategoryId?: number;
  MarketStatus: number;
  PricePrecision: number;
  LastPrice?: string;
  ForexQuotations?: {
    Open?: string | number;
    High?: string | number;
    Low?: string | number;
    Close: string | number;
    Change?: string | number;
  } | null;
}

export const tradeListQueryKey = ['forex', 'trade_list'] as const;

export async function getTradeList(searchCurrency?: string, signal?: AbortSignal): Promise<TradeSymbol[]> {
  const data = await apiGet<TradeSymbol[] | { data: TradeSymbol[] } | null>(
    '/v1/api/forex/trade_list',
    { searchCurrency: searchCurrency || undefined },
    { signal, showErrorMessage: false },
  );
  if (Array.isArray(data)) return data;
  return data?.data ?? [];
}

export const getTradeListQueryOptions = (searchCurrency?: string) =>
  queryOptions({
    queryKey: [...tradeListQueryKey, searchCurrency ?? ''],
    queryFn: ({ signal }) => getTradeList(searchCurrency, signal),
  });

export const useTradeList = (searchCurrency?: string) => useQuery(getTradeListQueryOptions(searchCurrency));
