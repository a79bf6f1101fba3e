import { useMutation, useQueryClient } from '@tanstack/react-query';
import { close } from '@tp/contract/endpoints/trading';
import { refreshAccount } from '../../../api/refresh-account';
import { call } from '../../../lib/api-client';

/** Closes an open position at the current price. */
export const closeOrder = (id: number) => call(close, { id });

export function useCloseOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: closeOrder, onSettled: () => refreshAccount(queryClient) });
}
