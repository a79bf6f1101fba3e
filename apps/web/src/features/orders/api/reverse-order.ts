import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reverse } from '@tp/contract/endpoints/trading';
import { refreshAccount } from '../../../api/refresh-account';
import { call } from '../../../lib/api-client';

/** Closes a position and opens the same lots the other way; the answer is the new position. */
export const reverseOrder = (id: number) => call(reverse, { id });

export function useReverseOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: reverseOrder, onSettled: () => refreshAccount(queryClient) });
}
