import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export interface UserInfo {
  id: number;
  uid: string;
  email: string;
  mobile: string;
  area_id: number;
  is_demo: 0 | 1;
  invite_code: string;
}

/** GET /api/user/info: the logged-in user. */
export const getUserInfo = () => apiGet<UserInfo>('/api/user/info', undefined, { showErrorMessage: false });

export const getUserInfoQueryOptions = () => queryOptions({ queryKey: ['user', 'info'], queryFn: getUserInfo });

export const useUserInfo = () => useQuery(getUserInfoQueryOptions());
