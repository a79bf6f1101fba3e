import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Company } from '@tp/contract/schemas/content';
import { apiGet } from '../../../lib/api-client';

/** GET /api/company/search: companies whose name contains `name`, main company first. */
export const searchCompanies = (name: string) =>
  apiGet<{ data: Company[]; total: number }>('/api/company/search', { name, page: 1, limit: 20 }, { showErrorMessage: false });

export const searchCompaniesQueryOptions = (name: string, enabled: boolean) =>
  queryOptions({ queryKey: ['content', 'company-search', name], queryFn: () => searchCompanies(name), enabled, placeholderData: keepPreviousData });

export const useCompanySearch = (name: string, enabled: boolean) => useQuery(searchCompaniesQueryOptions(name, enabled));
