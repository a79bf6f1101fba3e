import { queryOptions, useQuery } from '@tanstack/react-query';
import { abbreviatedKline } from '@tp/contract/endpoints/market';
import { call, queryKey } from '../../../lib/api-client';

const inputOf = (forexId: number) => ({ forex_id: forexId, period: '60min' });

/** The short recent series (last 48 hourly bars, oldest first) a market row draws. */
export const getAbbreviatedKline = (forexId: number, signal?: AbortSignal) =>
  call(abbreviatedKline, inputOf(forexId), { signal, showErrorMessage: false });

export const getAbbreviatedKlineQueryOptions = (forexId: number) =>
  queryOptions({
    queryKey: queryKey(abbreviatedKline, inputOf(forexId)),
    queryFn: ({ signal }) => getAbbreviatedKline(forexId, signal),
    staleTime: 5 * 60_000,
  });

export const useAbbreviatedKline = (forexId: number, enabled: boolean) =>
  useQuery({ ...getAbbreviatedKlineQueryOptions(forexId), enabled });
