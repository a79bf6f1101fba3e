import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InputOf } from '@tp/contract/endpoint';
import { setStopPrice as setStopPriceEndpoint } from '@tp/contract/endpoints/trading';
import { refreshAccount } from './refresh-account';
import { call } from '../lib/api-client';

/** Take-profit and stop-loss of an order; 0 removes one. */
export type SetStopPriceInput = InputOf<typeof setStopPriceEndpoint>;

export const setStopPrice = (input: SetStopPriceInput) => call(setStopPriceEndpoint, input);

export function useSetStopPrice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setStopPrice, onSuccess: () => refreshAccount(queryClient) });
}
