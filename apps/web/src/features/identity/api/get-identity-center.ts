import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

/** review_status: 0 not submitted, 1 under review, 2 verified, 3 rejected (reject_reason says why). */
export interface IdentityCenter {
  review_status: number;
  reject_reason: string;
  name: string;
  card_id: string;
  front_pic: string;
  reverse_pic: string;
}

/** GET /api/user_real/center: the user's identity verification. */
export const getIdentityCenter = () => apiGet<IdentityCenter>('/api/user_real/center', undefined, { showErrorMessage: false });

export const identityCenterQueryKey = ['user_real', 'center'] as const;

export const getIdentityCenterQueryOptions = () => queryOptions({ queryKey: identityCenterQueryKey, queryFn: getIdentityCenter, staleTime: 0 });

export const useIdentityCenter = (enabled: boolean) => useQuery({ ...getIdentityCenterQueryOptions(), enabled });
