import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { identityCenterQueryKey } from './get-identity-center';

export interface RealNameInput {
  name: string;
  card_id: string;
  front_pic: string;
  reverse_pic: string;
}

/** POST /api/user_real/real_name: name, id number and the two uploaded images; the review starts. */
export const submitRealName = (input: RealNameInput) => apiPost<unknown>('/api/user_real/real_name', input, { loading: true, showSuccessMessage: true });

export function useSubmitRealName() {
  const client = useQueryClient();
  return useMutation({ mutationFn: submitRealName, onSuccess: () => client.invalidateQueries({ queryKey: identityCenterQueryKey }) });
}
