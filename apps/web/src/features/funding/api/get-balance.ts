import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export const balanceQueryKey = ['wallet', 'getBalance'] as const;

/** GET /v1/api/main/wallet/getBalance: free balance and locked margin (USD). */
export const getBalance = () =>
  apiGet<{ balance: string; lock_balance: string; currency: string }>('/v1/api/main/wallet/getBalance', undefined, { showErrorMessage: false });

export const getBalanceQueryOptions = () => queryOptions({ queryKey: balanceQueryKey, queryFn: getBalance, staleTime: 0 });

export const useBalance = (enabled: boolean) => useQuery({ ...getBalanceQueryOptions(), enabled });
