import { useMutation } from '@tanstack/react-query';
import { amendPassword as amendPasswordEndpoint } from '@tp/contract/endpoints/auth';
import { call } from '../../../lib/api-client';

/** The fields the password form sends (the contract's input accepts them as text). */
export interface AmendPasswordInput {
  new_password: string;
  re_password: string;
  auth_code: string;
  type: 'email' | 'mobile';
}

/** With a code sent (type 2) to the user's own email or phone. */
export const amendPassword = (input: AmendPasswordInput) => call(amendPasswordEndpoint, input, { loading: true, showSuccessMessage: true });

export const useAmendPassword = () => useMutation({ mutationFn: amendPassword });
