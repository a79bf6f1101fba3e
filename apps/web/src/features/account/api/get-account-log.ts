import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@tp/contract/constants';
import { accountLog } from '@tp/contract/endpoints/trading';
import type { OutputOf } from '@tp/contract/endpoint';
import { call, queryKey } from '../../../lib/api-client';

export type AccountLogItem = OutputOf<typeof accountLog>['data'][number];

/** Every movement of the balance, newest first. */
export const getAccountLog = (page: number, signal?: AbortSignal) =>
  call(accountLog, { page, limit: DEFAULT_PAGE_SIZE }, { signal, showErrorMessage: false });

export const getAccountLogQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKey(accountLog),
    queryFn: ({ pageParam, signal }) => getAccountLog(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.reduce((n, p) => n + p.data.length, 0) < last.total && last.data.length > 0 ? pages.length + 1 : undefined),
  });

export const useAccountLog = () => useInfiniteQuery(getAccountLogQueryOptions());
