import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { drawMethodsQueryKey } from './get-draw-methods';

/** POST /api/wallet/del_draw_method: id. */
export const deleteDrawMethod = (id: number) => apiPost<null>('/api/wallet/del_draw_method', { id }, { loading: true, showSuccessMessage: true });

export function useDeleteDrawMethod() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteDrawMethod, onSuccess: () => client.invalidateQueries({ queryKey: drawMethodsQueryKey }) });
}
