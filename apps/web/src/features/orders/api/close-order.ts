import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order } from '@tp/contract/schemas/trading';
import { apiGet } from '../../../lib/api-client';

/** Closes an open position at the current price. */
export const closeOrder = (id: number): Promise<Order> => apiGet<Order>('/v1/api/forex/close', { id });

export function useCloseOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeOrder,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['forex', 'my_deal'] });
      void queryClient.invalidateQueries({ queryKey: ['main', 'account'] });
    },
  });
}
