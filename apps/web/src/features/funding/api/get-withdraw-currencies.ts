import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export interface WithdrawCurrency {
  id: number;
  code: string;
  protocol: string;
  /** 1 coin, 2 bank. */
  type: number;
  draw_rate: string;
  /** 1 fixed fee of draw_rate, otherwise draw_rate percent. */
  fee_type: number;
  usd_price: string;
  decimals: number;
  min_amount: string;
  max_amount: string;
}

/** GET /api/account/draw_symbol_list: withdrawal currencies of a type (1 coin, 2 bank). */
export const getWithdrawCurrencies = (type: 1 | 2) =>
  apiGet<WithdrawCurrency[]>('/api/account/draw_symbol_list', { type }, { showErrorMessage: false });

export const getWithdrawCurrenciesQueryOptions = (type: 1 | 2) =>
  queryOptions({ queryKey: ['account', 'draw_symbol_list', type], queryFn: () => getWithdrawCurrencies(type) });

export const useWithdrawCurrencies = (type: 1 | 2, enabled: boolean) => useQuery({ ...getWithdrawCurrenciesQueryOptions(type), enabled });
