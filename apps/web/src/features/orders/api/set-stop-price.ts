import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order } from '@tp/contract/schemas/trading';
import { apiGet } from '../../../lib/api-client';

export interface SetStopPriceInput {
  id: number;
  /** 0 removes the take-profit. */
  target_profit_price: string;
  /** 0 removes the stop-loss. */
  stop_loss_price: string;
}

export const setStopPrice = (input: SetStopPriceInput): Promise<Order> => apiGet<Order>('/v1/api/forex/set_stop_price', { ...input });

export function useSetStopPrice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setStopPrice,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['forex', 'my_deal'] }),
  });
}
