import { useMutation, useQueryClient } from '@tanstack/react-query';
import { resetDemoAccount as resetDemoAccountEndpoint } from '@tp/contract/endpoints/trading';
import { call } from '../../../lib/api-client';

/** Closes everything and restores the demo balance. */
export const resetDemoAccount = () => call(resetDemoAccountEndpoint, undefined, { loading: true, showSuccessMessage: true });

export function useResetDemoAccount() {
  const client = useQueryClient();
  return useMutation({ mutationFn: resetDemoAccount, onSuccess: () => client.invalidateQueries() });
}
