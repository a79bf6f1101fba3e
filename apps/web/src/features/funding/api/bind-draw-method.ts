import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { drawMethodsQueryKey, type DrawMethod } from './get-draw-methods';

export interface BindDrawMethodInput {
  type: 1 | 2;
  draw_id: number;
  dc_address?: string;
  bank_name?: string;
  bank_address?: string;
  bank_swift?: string;
  payee_name?: string;
  payee_account?: string;
}

/** POST /api/wallet/bind_draw_method (form): a coin address or a bank account for a withdrawal currency. */
export const bindDrawMethod = (input: BindDrawMethodInput) =>
  apiPost<DrawMethod>('/api/wallet/bind_draw_method', input, { loading: true, showSuccessMessage: true });

export function useBindDrawMethod() {
  const client = useQueryClient();
  return useMutation({ mutationFn: bindDrawMethod, onSuccess: () => client.invalidateQueries({ queryKey: drawMethodsQueryKey }) });
}
