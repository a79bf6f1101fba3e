import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@tp/contract/constants';
import type { OutputOf } from '@tp/contract/endpoint';
import { inviteList } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../../../lib/api-client';

export type Invitee = OutputOf<typeof inviteList>['data'][number];

/** Users who registered with my code. */
export const getInviteList = (page: number, signal?: AbortSignal) =>
  call(inviteList, { page, limit: DEFAULT_PAGE_SIZE }, { signal, showErrorMessage: false });

export const getInviteListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKey(inviteList),
    queryFn: ({ pageParam, signal }) => getInviteList(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.reduce((n, p) => n + p.data.length, 0) < last.total && last.data.length > 0 ? pages.length + 1 : undefined),
  });

export const useInviteList = (enabled: boolean) => useInfiniteQuery({ ...getInviteListQueryOptions(), enabled });
