import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ForexDetail } from '@tp/contract/schemas/trading';
import { apiGet } from '../../../lib/api-client';

/** Shared with the trade screen's available prepayment through the same key. */
export const forexDetailQueryKey = ['main', 'account', 'forexDetail'] as const;

export const getForexDetail = (signal?: AbortSignal): Promise<ForexDetail> =>
  apiGet<ForexDetail>('/v1/api/main/account/forexDetail', undefined, { signal, showErrorMessage: false });

export const getForexDetailQueryOptions = () =>
  queryOptions({ queryKey: forexDetailQueryKey, queryFn: ({ signal }) => getForexDetail(signal), staleTime: 0 });

export const useForexDetail = () => useQuery(getForexDetailQueryOptions());
