import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { deal } from '@tp/contract/endpoints/trading';
import { call, queryKey } from '../../../lib/api-client';

export type Deal = OutputOf<typeof deal>;

/** One symbol's lot limits (min, max, step) and open orders; used for partial closes. */
export const getDealQueryOptions = (forexId: number) =>
  queryOptions({
    queryKey: queryKey(deal, { forex_id: forexId }),
    queryFn: ({ signal }) => call(deal, { forex_id: forexId }, { signal, showErrorMessage: false }),
    staleTime: 60_000,
  });

export const useDeal = (forexId: number) => useQuery(getDealQueryOptions(forexId));
