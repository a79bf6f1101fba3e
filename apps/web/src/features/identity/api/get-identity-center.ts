import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { identityCenter } from '@tp/contract/endpoints/identity';
import { call, queryKey } from '../../../lib/api-client';

/** review_status: 0 not submitted, 1 under review, 2 verified, 3 rejected (reject_reason says why). */
export type IdentityCenter = OutputOf<typeof identityCenter>;

/** The user's identity verification. */
export const getIdentityCenter = (signal?: AbortSignal) => call(identityCenter, undefined, { signal, showErrorMessage: false });

export const identityCenterQueryKey = queryKey(identityCenter);

export const getIdentityCenterQueryOptions = () =>
  queryOptions({ queryKey: identityCenterQueryKey, queryFn: ({ signal }) => getIdentityCenter(signal), staleTime: 0 });

export const useIdentityCenter = (enabled: boolean) => useQuery({ ...getIdentityCenterQueryOptions(), enabled });
