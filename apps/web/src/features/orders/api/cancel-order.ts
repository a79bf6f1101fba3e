import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cancelTrade } from '@tp/contract/endpoints/trading';
import { refreshAccount } from '../../../api/refresh-account';
import { call } from '../../../lib/api-client';

/** Cancels a pending order; its reservation is refunded. */
export const cancelOrder = (id: number) => call(cancelTrade, { id });

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelOrder, onSettled: () => refreshAccount(queryClient) });
}
