import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ForexDetail } from '@tp/contract/schemas/trading';
import { apiGet } from '../../../lib/api-client';

export const forexDetailQueryKey = ['main', 'account', 'forexDetail'] as const;

export const getForexDetail = (signal?: AbortSignal): Promise<ForexDetail> =>
  apiGet<ForexDetail>('/v1/api/main/account/forexDetail', undefined, { signal, showErrorMessage: false });

export const getForexDetailQueryOptions = () =>
  queryOptions({ queryKey: forexDetailQueryKey, queryFn: ({ signal }) => getForexDetail(signal), staleTime: 5_000 });

export const useForexDetail = (enabled: boolean) => useQuery({ ...getForexDetailQueryOptions(), enabled });
