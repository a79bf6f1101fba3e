import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { currentLang } from '../../../lib/i18n';

export interface Category {
  Id: number;
  NameShowTrans: string;
}

/** Categories for the symbol picker; the names come translated by the lang header (same key as home). */
export const getSymbolCategories = (signal?: AbortSignal): Promise<Category[]> =>
  apiGet<Category[]>('/v1/api/forex/getCategories', undefined, { signal, showErrorMessage: false });

export const useSymbolCategories = () =>
  useQuery({
    queryKey: ['forex', 'categories', currentLang()],
    queryFn: ({ signal }) => getSymbolCategories(signal),
    staleTime: 10 * 60_000,
  });
