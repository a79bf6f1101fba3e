import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export interface ForexDetail {
  balance: string;
  lock_balance: string;
  equity: string;
  float_profit: string;
  margin: string;
  risk_rate: string | null;
  available_prepayment: string;
}

/** GET /v1/api/main/account/forexDetail: balance, locked margin and net value (equity). */
export const getForexDetail = () => apiGet<ForexDetail>('/v1/api/main/account/forexDetail', undefined, { showErrorMessage: false });

export const getForexDetailQueryOptions = () => queryOptions({ queryKey: ['account', 'forexDetail'], queryFn: getForexDetail, staleTime: 5_000 });

export const useForexDetail = () => useQuery(getForexDetailQueryOptions());
