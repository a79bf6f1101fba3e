import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Code } from '@tp/contract/codes';
import type { InputOf } from '@tp/contract/endpoint';
import { submit } from '@tp/contract/endpoints/trading';
import { refreshAccount } from '../../../api/refresh-account';
import { toast } from '../../../components/ui/toast-store';
import { ApiError, call } from '../../../lib/api-client';

export type SubmitOrderInput = InputOf<typeof submit>;

/** Places an order; existing clients send submit as GET with a query (PROTOCOL.md). */
export const submitOrder = (input: SubmitOrderInput) => call(submit, input, { showErrorMessage: false });

/** A refusal because the price moved past the tolerance: the server's new price, shown in a requote dialog. */
export function requotePrice(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== Code.REQUOTE) return null;
  const price = (error.data as { price?: unknown } | null)?.price;
  return typeof price === 'string' ? price : null;
}

/** Sent once and never retried (a retry by the trader reuses the client order id). */
export function useSubmitOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitOrder,
    retry: false,
    networkMode: 'always',
    onSuccess: () => refreshAccount(queryClient),
    onError: (error) => {
      // Network failures were toasted by the API client; a requote gets its own dialog.
      if (error instanceof ApiError && error.kind === 'business' && requotePrice(error) === null && error.message) toast(error.message, 'error');
    },
  });
}
