import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TradeListRow } from '@tp/contract/schemas/market';
import { apiGet } from '../../../lib/api-client';

export type TradeSymbol = TradeListRow;

/**
 * trade_list as the trade screen reads it. The query key is the one the home list uses, so both
 * screens share one cache entry and the refresh done on navigation.
 */
export const getSymbols = (signal?: AbortSignal): Promise<TradeSymbol[]> =>
  apiGet<TradeSymbol[]>('/v1/api/forex/trade_list', undefined, { signal, showErrorMessage: false });

export const getSymbolsQueryOptions = () =>
  queryOptions({ queryKey: ['forex', 'trade_list', ''], queryFn: ({ signal }) => getSymbols(signal) });

export const useSymbols = () => useQuery(getSymbolsQueryOptions());
