import { useMutation, useQueryClient } from '@tanstack/react-query';
import { realName } from '@tp/contract/endpoints/identity';
import { call } from '../../../lib/api-client';
import { identityCenterQueryKey } from './get-identity-center';

/** The fields the identity form sends. */
export interface RealNameInput {
  name: string;
  card_id: string;
  front_pic: string;
  reverse_pic: string;
}

/** Name, id number and the two uploaded images; the review starts. */
export const submitRealName = (input: RealNameInput) => call(realName, input, { loading: true, showSuccessMessage: true });

export function useSubmitRealName() {
  const client = useQueryClient();
  return useMutation({ mutationFn: submitRealName, onSuccess: () => client.invalidateQueries({ queryKey: identityCenterQueryKey }) });
}
