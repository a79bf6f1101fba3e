import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { currentLang } from '../../../lib/i18n';

/** A symbol category with its name in the request's language. */
export interface Category {
  Id: number;
  NameShowTrans: string;
}

export const getCategories = (signal?: AbortSignal): Promise<Category[]> =>
  apiGet<Category[]>('/v1/api/forex/getCategories', undefined, { signal, showErrorMessage: false });

/** Keyed by language: the names come translated by the lang header. */
export const getCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['forex', 'categories', currentLang()],
    queryFn: ({ signal }) => getCategories(signal),
    staleTime: 10 * 60_000,
  });

export const useCategories = () => useQuery(getCategoriesQueryOptions());
