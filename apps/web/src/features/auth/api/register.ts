import { useMutation } from '@tanstack/react-query';
import { register as registerEndpoint } from '@tp/contract/endpoints/auth';
import { call } from '../../../lib/api-client';

/** The fields the registration form sends (the contract's input accepts them as text). */
export interface RegisterInput {
  type: 'email' | 'mobile';
  account: string;
  area_id?: number;
  mobile?: string;
  password: string;
  re_password: string;
  invite_code?: string;
  /** The emailed or texted code, or the captcha answer when verify_reg_type is 2. */
  sms_code?: string;
  /** The captcha id. */
  key?: string;
}

/** Creates a real account and answers its session (sent as a form). */
export const register = (input: RegisterInput) => call(registerEndpoint, input, { loading: true });

export const useRegister = () => useMutation({ mutationFn: register });
