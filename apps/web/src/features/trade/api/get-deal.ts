import { queryOptions, useQuery } from '@tanstack/react-query';
import { deal } from '@tp/contract/endpoints/trading';
import { call, queryKey } from '../../../lib/api-client';

/** One symbol's trade screen figures; the order form reads its default slippage tolerance (`deviation`, points). */
export const getDealQueryOptions = (forexId: number) =>
  queryOptions({
    queryKey: queryKey(deal, { forex_id: forexId }),
    queryFn: ({ signal }) => call(deal, { forex_id: forexId }, { signal, showErrorMessage: false }),
    staleTime: 60_000,
  });

export const useDeal = (forexId: number, enabled: boolean) => useQuery({ ...getDealQueryOptions(forexId), enabled });
