import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@tp/contract/constants';
import { depositList } from '@tp/contract/endpoints/funding';
import type { OutputOf } from '@tp/contract/endpoint';
import { call, queryKey } from '../../../lib/api-client';

export type DepositRecord = OutputOf<typeof depositList>['data'][number];

/** Every deposit list, whatever its type: invalidated after a deposit is declared. */
export const depositRecordsQueryKey = queryKey(depositList);

/** The user's deposits of a type (0 coin, 1 bank), newest first. */
export const getDepositRecords = (type: number, page: number) =>
  call(depositList, { type, page, limit: DEFAULT_PAGE_SIZE }, { showErrorMessage: false });

export const getDepositRecordsQueryOptions = (type: number) =>
  infiniteQueryOptions({
    queryKey: [...depositRecordsQueryKey, { type }],
    queryFn: ({ pageParam }) => getDepositRecords(type, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.reduce((n, p) => n + p.data.length, 0) < last.total && last.data.length > 0 ? pages.length + 1 : undefined),
  });

export const useDepositRecords = (type: number, enabled: boolean) => useInfiniteQuery({ ...getDepositRecordsQueryOptions(type), enabled });
