import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@tp/contract/constants';
import { apiGet } from '../../../lib/api-client';

export interface WithdrawRecord {
  id: number;
  number: string;
  real_number: string;
  fee: string;
  draw_currency: { id: number; code: string; protocol: string };
  /** 0 pending review, 1 paid, 2 rejected. */
  status: number;
  status_name: string;
  created_at: string;
  /** 1 coin, 2 bank. */
  type: number;
  address: string;
  payee_account: string;
  memo: string;
  notes: string;
}

interface WithdrawPage {
  data: WithdrawRecord[];
  total: number;
}

export const withdrawRecordsQueryKey = ['account', 'draw_list'] as const;

/** GET /api/account/draw_list: the user's withdrawals of a type (1 coin, 2 bank), newest first. */
export const getWithdrawRecords = (type: 1 | 2, page: number) =>
  apiGet<WithdrawPage>('/api/account/draw_list', { type, page, limit: DEFAULT_PAGE_SIZE }, { showErrorMessage: false });

export const getWithdrawRecordsQueryOptions = (type: 1 | 2) =>
  infiniteQueryOptions({
    queryKey: [...withdrawRecordsQueryKey, type],
    queryFn: ({ pageParam }) => getWithdrawRecords(type, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.reduce((n, p) => n + p.data.length, 0) < last.total && last.data.length > 0 ? pages.length + 1 : undefined),
  });

export const useWithdrawRecords = (type: 1 | 2, enabled: boolean) => useInfiniteQuery({ ...getWithdrawRecordsQueryOptions(type), enabled });
