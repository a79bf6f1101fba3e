import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { categories } from '@tp/contract/endpoints/market';
import { call, queryKey } from '../lib/api-client';
import { currentLang } from '../lib/i18n';

/** A symbol category with its name in the request's language. */
export type Category = OutputOf<typeof categories>[number];

export const getCategories = (signal?: AbortSignal) => call(categories, undefined, { signal, showErrorMessage: false });

/** Keyed by language: the names come translated by the lang header. */
export const getCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: [...queryKey(categories), currentLang()],
    queryFn: ({ signal }) => getCategories(signal),
    staleTime: 10 * 60_000,
  });

export const useCategories = () => useQuery(getCategoriesQueryOptions());
