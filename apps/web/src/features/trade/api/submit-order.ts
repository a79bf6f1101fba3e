import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order } from '@tp/contract/schemas/trading';
import { apiGet } from '../../../lib/api-client';

export interface SubmitOrderInput {
  /** 1 buy, 2 sell. */
  type: number;
  cont: string;
  forex_id: number;
  /** 1 market, 0 pending at target_price. */
  status: number;
  target_price?: string;
  stop_loss_price?: string;
  target_profit_price?: string;
  multiple: number;
  client_order_id: string;
}

/** Existing clients send submit as GET with a query (PROTOCOL.md). */
export const submitOrder = (input: SubmitOrderInput): Promise<Order> =>
  apiGet<Order>('/v1/api/forex/submit', { ...input });

export function useSubmitOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitOrder,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['forex', 'my_deal'] });
      void queryClient.invalidateQueries({ queryKey: ['main', 'account'] });
    },
  });
}
