import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { followList } from '@tp/contract/endpoints/social';
import { call, queryKey } from '../../../lib/api-client';

export const RANKING_PAGE_SIZE = 20;

/** Traders ranked by three-week profit rate (real closed orders), best first. */
export const getFollowList = (page: number, signal?: AbortSignal) =>
  call(followList, { page, limit: RANKING_PAGE_SIZE }, { signal, showErrorMessage: false });

export const getFollowListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKey(followList),
    queryFn: ({ pageParam, signal }) => getFollowList(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      last.data.length > 0 && pages.reduce((n, p) => n + p.data.length, 0) < last.total ? pages.length + 1 : undefined,
    // The server refreshes the ranking every minute.
    staleTime: 60_000,
  });

export const useFollowList = () => useInfiniteQuery(getFollowListQueryOptions());
