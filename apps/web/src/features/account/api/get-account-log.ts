import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@tp/contract/constants';
import { apiGet } from '../../../lib/api-client';

export interface AccountLogItem {
  Id: number;
  Value: string;
  Type: string;
  Memo: string;
  MemoTran: string;
  CreatedAt: number;
  CreatedAtTran: string;
}

interface AccountLogPage {
  data: AccountLogItem[];
  total: number;
}

/** GET /v1/api/main/accountLog/forexChange: every movement of the balance, newest first. */
export const getAccountLog = (page: number) =>
  apiGet<AccountLogPage>('/v1/api/main/accountLog/forexChange', { page, limit: DEFAULT_PAGE_SIZE }, { showErrorMessage: false });

export const getAccountLogQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['account', 'forexChange'],
    queryFn: ({ pageParam }) => getAccountLog(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.reduce((n, p) => n + p.data.length, 0) < last.total && last.data.length > 0 ? pages.length + 1 : undefined),
  });

export const useAccountLog = () => useInfiniteQuery(getAccountLogQueryOptions());
