import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiKeyList, apiKeyRevoke } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../../../lib/api-client';

/** Revokes one of the user's keys: it stops working at once. */
export const revokeApiKey = (id: number) => call(apiKeyRevoke, { id }, { loading: true, showSuccessMessage: true });

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKey(apiKeyList) }),
  });
}
