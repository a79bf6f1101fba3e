import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { areaList } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../../../lib/api-client';

export type AreaCode = OutputOf<typeof areaList>[number];

/** Countries and their dialling codes. */
export const getAreaList = () => call(areaList, undefined, { showErrorMessage: false });

export const getAreaListQueryOptions = () => queryOptions({ queryKey: queryKey(areaList), queryFn: getAreaList, staleTime: Infinity });

export const useAreaList = (enabled: boolean) => useQuery({ ...getAreaListQueryOptions(), enabled });
