import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

export interface ForgetPasswordInput {
  type: 'email' | 'mobile';
  account: string;
  area_id?: number;
  new_password: string;
  secondary_password: string;
  auth_code: string;
}

/** POST /api/user/forget_password: a new password with a code sent with type 2. */
export const forgetPassword = (input: ForgetPasswordInput) =>
  apiPost<null>('/api/user/forget_password', input, { loading: true, showSuccessMessage: true });

export const useForgetPassword = () => useMutation({ mutationFn: forgetPassword });
