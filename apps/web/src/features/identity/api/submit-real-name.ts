import { useMutation, useQueryClient } from '@tanstack/react-query';
import { realName } from '@tp/contract/endpoints/identity';
import type { RealNameInputValue } from '@tp/contract/schemas/identity';
import { call } from '../../../lib/api-client';
import { identityCenterQueryKey } from './get-identity-center';

/** What the identity form sends: the contract's parsed input. */
export type RealNameInput = RealNameInputValue;

/** Name, id number and the two uploaded images; the review starts. */
export const submitRealName = (input: RealNameInput) => call(realName, input, { loading: true, showSuccessMessage: true });

export function useSubmitRealName() {
  const client = useQueryClient();
  return useMutation({ mutationFn: submitRealName, onSuccess: () => client.invalidateQueries({ queryKey: identityCenterQueryKey }) });
}
