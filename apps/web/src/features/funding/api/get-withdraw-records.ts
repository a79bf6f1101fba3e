import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@tp/contract/constants';
import { drawList } from '@tp/contract/endpoints/funding';
import type { OutputOf } from '@tp/contract/endpoint';
import { call, queryKey } from '../../../lib/api-client';

export type WithdrawRecord = OutputOf<typeof drawList>['data'][number];

/** Every withdrawal list, whatever its type: invalidated after a withdrawal is requested. */
export const withdrawRecordsQueryKey = queryKey(drawList);

/** The user's withdrawals of a type (1 coin, 2 bank), newest first. */
export const getWithdrawRecords = (type: 1 | 2, page: number) =>
  call(drawList, { type, page, limit: DEFAULT_PAGE_SIZE }, { showErrorMessage: false });

export const getWithdrawRecordsQueryOptions = (type: 1 | 2) =>
  infiniteQueryOptions({
    queryKey: [...withdrawRecordsQueryKey, { type }],
    queryFn: ({ pageParam }) => getWithdrawRecords(type, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.reduce((n, p) => n + p.data.length, 0) < last.total && last.data.length > 0 ? pages.length + 1 : undefined),
  });

export const useWithdrawRecords = (type: 1 | 2, enabled: boolean) => useInfiniteQuery({ ...getWithdrawRecordsQueryOptions(type), enabled });
