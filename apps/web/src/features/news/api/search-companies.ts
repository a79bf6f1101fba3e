import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { searchCompanies as searchCompaniesEndpoint } from '@tp/contract/endpoints/content';
import { call, queryKey } from '../../../lib/api-client';

const SEARCH_LIMIT = 20;

/** Companies whose name contains `name`, main company first. */
export const searchCompanies = (name: string) =>
  call(searchCompaniesEndpoint, { name, page: 1, limit: SEARCH_LIMIT }, { showErrorMessage: false });

export const searchCompaniesQueryOptions = (name: string, enabled: boolean) =>
  queryOptions({
    queryKey: queryKey(searchCompaniesEndpoint, { name, page: 1, limit: SEARCH_LIMIT }),
    queryFn: () => searchCompanies(name),
    enabled,
    placeholderData: keepPreviousData,
  });

export const useCompanySearch = (name: string, enabled: boolean) => useQuery(searchCompaniesQueryOptions(name, enabled));
