import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@tp/contract/constants';
import { newsList } from '@tp/contract/endpoints/content';
import { call, queryKey } from '../../../lib/api-client';

export const NEWS_CATEGORY_ID = 1;

/** Published news of category 1, newest first, `page` from 1. */
export const getNewsList = (page: number) =>
  call(newsList, { category_id: NEWS_CATEGORY_ID, page, limit: DEFAULT_PAGE_SIZE }, { showErrorMessage: false });

export const getNewsListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...queryKey(newsList), { category_id: NEWS_CATEGORY_ID }],
    queryFn: ({ pageParam }) => getNewsList(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      last.data.length > 0 && pages.reduce((n, p) => n + p.data.length, 0) < last.total ? pages.length + 1 : undefined,
  });

export const useNewsList = () => useInfiniteQuery(getNewsListQueryOptions());
