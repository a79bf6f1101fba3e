import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order } from '@tp/contract/schemas/trading';
import { apiGet } from '../../../lib/api-client';

/** Cancels a pending order; its reservation is refunded. */
export const cancelOrder = (id: number): Promise<Order> => apiGet<Order>('/v1/api/forex/cancel_trade', { id });

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['forex', 'my_deal'] });
      void queryClient.invalidateQueries({ queryKey: ['main', 'account'] });
    },
  });
}
