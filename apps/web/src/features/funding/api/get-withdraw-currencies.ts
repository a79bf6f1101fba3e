import { queryOptions, useQuery } from '@tanstack/react-query';
import { withdrawCurrencies } from '@tp/contract/endpoints/funding';
import type { OutputOf } from '@tp/contract/endpoint';
import { call, queryKey } from '../../../lib/api-client';

export type WithdrawCurrency = OutputOf<typeof withdrawCurrencies>[number];

/** Withdrawal currencies of a type (1 coin, 2 bank) with fee terms and limits. */
export const getWithdrawCurrencies = (type: 1 | 2) => call(withdrawCurrencies, { type }, { showErrorMessage: false });

export const getWithdrawCurrenciesQueryOptions = (type: 1 | 2) =>
  queryOptions({ queryKey: queryKey(withdrawCurrencies, { type }), queryFn: () => getWithdrawCurrencies(type) });

export const useWithdrawCurrencies = (type: 1 | 2, enabled: boolean) => useQuery({ ...getWithdrawCurrenciesQueryOptions(type), enabled });
