import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import type { Session } from './login';

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

/** POST /api/user/register (form): creates a real account and answers its session. */
export const register = (input: RegisterInput) => apiPost<Session>('/api/user/register', input, { loading: true });

export const useRegister = () => useMutation({ mutationFn: register });
