import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

/** GET /v1/api/main/user/resetForexDemoAccount: closes everything and restores the demo balance. */
export const resetDemoAccount = () => apiGet<{ balance: string }>('/v1/api/main/user/resetForexDemoAccount', undefined, { loading: true, showSuccessMessage: true });

export function useResetDemoAccount() {
  const client = useQueryClient();
  return useMutation({ mutationFn: resetDemoAccount, onSuccess: () => client.invalidateQueries() });
}
