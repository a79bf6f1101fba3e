import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { basicInfo } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../lib/api-client';

/** Base data: the support link and how to open it, the registration verification type, the trade fee type. */
export type BasicInfo = OutputOf<typeof basicInfo>;

export const getBasicInfo = (signal?: AbortSignal) => call(basicInfo, undefined, { signal, showErrorMessage: false });

export const getBasicInfoQueryOptions = () =>
  queryOptions({ queryKey: queryKey(basicInfo), queryFn: ({ signal }) => getBasicInfo(signal), staleTime: 10 * 60_000 });

export const useBasicInfo = () => useQuery(getBasicInfoQueryOptions());
