import { queryOptions, useQuery } from '@tanstack/react-query';
import { forexDetail } from '@tp/contract/endpoints/trading';
import { call, queryKey } from '../lib/api-client';

/** The account figures (balance, margin, equity, floating profit, margin level): one query for every screen. */
export const getForexDetailQueryOptions = () =>
  queryOptions({
    queryKey: queryKey(forexDetail),
    queryFn: ({ signal }) => call(forexDetail, undefined, { signal, showErrorMessage: false }),
    staleTime: 5_000,
  });

export const useForexDetail = (enabled = true) => useQuery({ ...getForexDetailQueryOptions(), enabled });
