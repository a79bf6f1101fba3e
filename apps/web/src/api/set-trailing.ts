import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setTrailing as setTrailingEndpoint } from '@tp/contract/endpoints/trading';
import { refreshAccount } from './refresh-account';
import { call } from '../lib/api-client';

/** A trailing stop distance in points on an open position; 0 removes it. */
export const setTrailing = (input: { id: number; points: number }) => call(setTrailingEndpoint, input);

export function useSetTrailing() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setTrailing, onSuccess: () => refreshAccount(queryClient) });
}
