import { queryOptions, useQuery } from '@tanstack/react-query';
import type { KlineBar } from '@tp/contract/schemas/market';
import { apiGet } from '../../../lib/api-client';

/** The short recent series (last 48 hourly bars, oldest first) a market row draws. */
export const getAbbreviatedKline = (forexId: number, signal?: AbortSignal): Promise<KlineBar[]> =>
  apiGet<KlineBar[]>('/v1/api/forex/abbreviated_cache_kline', { forex_id: forexId, period: '60min' }, { signal, showErrorMessage: false });

export const getAbbreviatedKlineQueryOptions = (forexId: number) =>
  queryOptions({
    queryKey: ['forex', 'abbreviated_cache_kline', forexId],
    queryFn: ({ signal }) => getAbbreviatedKline(forexId, signal),
    staleTime: 5 * 60_000,
  });

export const useAbbreviatedKline = (forexId: number, enabled: boolean) =>
  useQuery({ ...getAbbreviatedKlineQueryOptions(forexId), enabled });
