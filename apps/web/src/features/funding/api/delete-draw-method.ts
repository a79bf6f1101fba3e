import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteDrawMethod as deleteDrawMethodEndpoint } from '@tp/contract/endpoints/funding';
import { call } from '../../../lib/api-client';
import { drawMethodsQueryKey } from './get-draw-methods';

/** Deletes one of the user's receiving accounts. */
export const deleteDrawMethod = (id: number) => call(deleteDrawMethodEndpoint, { id }, { loading: true, showSuccessMessage: true });

export function useDeleteDrawMethod() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteDrawMethod, onSuccess: () => client.invalidateQueries({ queryKey: drawMethodsQueryKey }) });
}
