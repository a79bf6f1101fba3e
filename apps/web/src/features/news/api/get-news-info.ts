import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NewsDetail } from '@tp/contract/schemas/content';
import { apiGet } from '../../../lib/api-client';

/** GET /api/news/info: one article; `content` is HTML the server has sanitized. Shows the loading indicator. */
export const getNewsInfo = (id: number) => apiGet<NewsDetail>('/api/news/info', { id }, { loading: true });

export const getNewsInfoQueryOptions = (id: number | null) =>
  queryOptions({
    queryKey: ['news', 'info', id],
    queryFn: () => getNewsInfo(id!),
    enabled: id !== null,
    retry: false,
  });

export const useNewsInfo = (id: number | null) => useQuery(getNewsInfoQueryOptions(id));
