import { queryOptions, useQuery } from '@tanstack/react-query';
import { totpStatus } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../lib/api-client';

/** Whether two-factor sign-in is on (the user center's switch; a withdrawal then needs a code). */
export const getTwoFactorStatus = (signal?: AbortSignal) => call(totpStatus, undefined, { signal });

export const getTwoFactorStatusQueryOptions = () => queryOptions({ queryKey: queryKey(totpStatus), queryFn: ({ signal }) => getTwoFactorStatus(signal) });

export const useTwoFactorStatus = () => useQuery(getTwoFactorStatusQueryOptions());
