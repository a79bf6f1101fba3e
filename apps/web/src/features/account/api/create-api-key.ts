import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InputOf } from '@tp/contract/endpoint';
import { apiKeyCreate, apiKeyList } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../../../lib/api-client';

export type CreateApiKeyInput = InputOf<typeof apiKeyCreate>;

/** Creates a key; the answer holds the key itself, this once. The form shows refusals in place. */
export const createApiKey = (input: CreateApiKeyInput) => call(apiKeyCreate, input, { loading: true, showErrorMessage: false });

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKey(apiKeyList) }),
  });
}
