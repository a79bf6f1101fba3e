import { queryOptions, useQuery } from '@tanstack/react-query';
import { getBalance } from '@tp/contract/endpoints/trading';
import { call, queryKey } from '../lib/api-client';

/** Free balance and locked margin (USD). */
export const getBalanceQueryOptions = () =>
  queryOptions({
    queryKey: queryKey(getBalance),
    queryFn: ({ signal }) => call(getBalance, undefined, { signal, showErrorMessage: false }),
    staleTime: 0,
  });

export const useBalance = (enabled = true) => useQuery({ ...getBalanceQueryOptions(), enabled });
