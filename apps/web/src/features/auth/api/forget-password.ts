import { useMutation } from '@tanstack/react-query';
import { forgetPassword as forgetPasswordEndpoint } from '@tp/contract/endpoints/auth';
import { call } from '../../../lib/api-client';

/** The fields the forgotten-password form sends (the contract's input accepts them as text). */
export interface ForgetPasswordInput {
  type: 'email' | 'mobile';
  account: string;
  area_id?: number;
  new_password: string;
  secondary_password: string;
  auth_code: string;
}

/** A new password with a code sent with type 2. */
export const forgetPassword = (input: ForgetPasswordInput) =>
  call(forgetPasswordEndpoint, input, { loading: true, showSuccessMessage: true });

export const useForgetPassword = () => useMutation({ mutationFn: forgetPassword });
