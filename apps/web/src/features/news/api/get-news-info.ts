import { queryOptions, useQuery } from '@tanstack/react-query';
import { newsInfo } from '@tp/contract/endpoints/content';
import { call, queryKey } from '../../../lib/api-client';

/** One article; `content` is HTML the server has sanitized. Shows the loading indicator. */
export const getNewsInfo = (id: number) => call(newsInfo, { id }, { loading: true });

export const getNewsInfoQueryOptions = (id: number | null) =>
  queryOptions({
    queryKey: queryKey(newsInfo, { id: id ?? 0 }),
    queryFn: () => getNewsInfo(id!),
    enabled: id !== null,
    retry: false,
  });

export const useNewsInfo = (id: number | null) => useQuery(getNewsInfoQueryOptions(id));
