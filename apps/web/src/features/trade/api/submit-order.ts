import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InputOf } from '@tp/contract/endpoint';
import { submit } from '@tp/contract/endpoints/trading';
import { refreshAccount } from '../../../api/refresh-account';
import { call } from '../../../lib/api-client';

export type SubmitOrderInput = InputOf<typeof submit>;

/** Places an order; existing clients send submit as GET with a query (PROTOCOL.md). */
export const submitOrder = (input: SubmitOrderInput) => call(submit, input);

export function useSubmitOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: submitOrder, onSuccess: () => refreshAccount(queryClient) });
}
