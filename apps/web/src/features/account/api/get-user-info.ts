import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { userInfo } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../../../lib/api-client';

export type UserInfo = OutputOf<typeof userInfo>;

/** The logged-in user. */
export const getUserInfo = (signal?: AbortSignal) => call(userInfo, undefined, { signal, showErrorMessage: false });

export const getUserInfoQueryOptions = () => queryOptions({ queryKey: queryKey(userInfo), queryFn: ({ signal }) => getUserInfo(signal) });

export const useUserInfo = () => useQuery(getUserInfoQueryOptions());
