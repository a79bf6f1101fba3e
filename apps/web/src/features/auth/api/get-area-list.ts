import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export interface AreaCode {
  id: number;
  code: string;
  global_code: string;
  name: string;
}

/** GET /api/default/area_list: countries and their dialling codes. */
export const getAreaList = () => apiGet<AreaCode[]>('/api/default/area_list', undefined, { showErrorMessage: false });

export const getAreaListQueryOptions = () => queryOptions({ queryKey: ['default', 'area_list'], queryFn: getAreaList, staleTime: Infinity });

export const useAreaList = (enabled: boolean) => useQuery({ ...getAreaListQueryOptions(), enabled });
