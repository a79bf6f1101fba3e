import { useMutation } from '@tanstack/react-query';
import { forgetPassword as forgetPasswordEndpoint } from '@tp/contract/endpoints/auth';
import type { ForgetPasswordInputValue } from '@tp/contract/schemas/auth';
import { call } from '../../../lib/api-client';

/** What the forgotten-password form sends: the contract's parsed input. */
export type ForgetPasswordInput = ForgetPasswordInputValue;

/** A new password with a code sent with type 2. */
export const forgetPassword = (input: ForgetPasswordInput) =>
  call(forgetPasswordEndpoint, input, { loading: true, showSuccessMessage: true });

export const useForgetPassword = () => useMutation({ mutationFn: forgetPassword });
