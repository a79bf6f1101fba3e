import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@tp/contract/constants';
import { apiGet } from '../../../lib/api-client';

export interface Invitee {
  uid: string;
  email: string;
  mobile: string;
  created_at: string;
}

/** GET /api/user/invite_list: users who registered with my code. */
export const getInviteList = (page: number) =>
  apiGet<{ data: Invitee[]; total: number }>('/api/user/invite_list', { page, limit: DEFAULT_PAGE_SIZE }, { showErrorMessage: false });

export const getInviteListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['user', 'invite_list'],
    queryFn: ({ pageParam }) => getInviteList(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.reduce((n, p) => n + p.data.length, 0) < last.total && last.data.length > 0 ? pages.length + 1 : undefined),
  });

export const useInviteList = (enabled: boolean) => useInfiniteQuery({ ...getInviteListQueryOptions(), enabled });
