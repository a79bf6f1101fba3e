import { useMutation, useQueryClient } from '@tanstack/react-query';
import { close } from '@tp/contract/endpoints/trading';
import { refreshAccount } from '../../../api/refresh-account';
import { call } from '../../../lib/api-client';

/** Closes an open position at the current price; with `lots`, only that many (the rest stays open with its TP/SL). */
export const closeOrder = ({ id, lots }: { id: number; lots?: string }) => call(close, { id, cont: lots });

export function useCloseOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: closeOrder, onSettled: () => refreshAccount(queryClient) });
}
