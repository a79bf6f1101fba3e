import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { RankingItem } from '@tp/contract/schemas/social';
import { apiGet } from '../../../lib/api-client';

export const RANKING_PAGE_SIZE = 20;

interface RankingPage {
  data: RankingItem[];
  total: number;
}

/** GET /api/follow/list: traders ranked by three-week profit rate (real closed orders), best first. */
export const getFollowList = (page: number) =>
  apiGet<RankingPage>('/api/follow/list', { page, limit: RANKING_PAGE_SIZE }, { showErrorMessage: false });

export const getFollowListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['follow', 'list'],
    queryFn: ({ pageParam }) => getFollowList(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      last.data.length > 0 && pages.reduce((n, p) => n + p.data.length, 0) < last.total ? pages.length + 1 : undefined,
    // The server refreshes the ranking every minute.
    staleTime: 60_000,
  });

export const useFollowList = () => useInfiniteQuery(getFollowListQueryOptions());
