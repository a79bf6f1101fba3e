import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@tp/contract/constants';
import { apiGet } from '../../../lib/api-client';

export interface DepositRecord {
  id: number;
  number: string;
  /** 0 coin, 1 bank. */
  type: number;
  currency_code: string;
  /** 0 unchecked, 1 finished, 2 rejected, 3 invalid. */
  status: number;
  status_name: string;
  created_at: string;
  remark: string;
}

interface DepositPage {
  data: DepositRecord[];
  total: number;
}

export const depositRecordsQueryKey = ['quickCharge', 'quick_ist'] as const;

/** GET /api/quickCharge/quick_ist: the user's deposits of a type (0 coin, 1 bank), newest first. */
export const getDepositRecords = (type: number, page: number) =>
  apiGet<DepositPage>('/api/quickCharge/quick_ist', { type, page, limit: DEFAULT_PAGE_SIZE }, { showErrorMessage: false });

export const getDepositRecordsQueryOptions = (type: number) =>
  infiniteQueryOptions({
    queryKey: [...depositRecordsQueryKey, type],
    queryFn: ({ pageParam }) => getDepositRecords(type, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.reduce((n, p) => n + p.data.length, 0) < last.total && last.data.length > 0 ? pages.length + 1 : undefined),
  });

export const useDepositRecords = (type: number, enabled: boolean) => useInfiniteQuery({ ...getDepositRecordsQueryOptions(type), enabled });
