import { useMutation } from '@tanstack/react-query';
import { createDemoAccount } from '@tp/contract/endpoints/trading';
import { apiPost, call } from '../../../lib/api-client';
import type { SessionUser } from '../../../lib/session-store';

export interface Session {
  token: string;
  user: SessionUser;
}

export interface LoginInput {
  account?: string;
  password?: string;
  login_type?: 'email' | 'mobile';
  area_id?: number;
  demo_id?: string;
  /** Asked for by the server after failed logins (code LOGIN_CAPTCHA_REQUIRED). */
  key?: string;
  captcha?: string;
  /** Asked for when the account has two-factor sign-in on (code LOGIN_TOTP_REQUIRED). */
  totp?: string;
}

/** POST /api/user/loginForU (form): account and password, or demo_id. */
export const login = (input: LoginInput) => apiPost<Session>('/api/user/loginForU', input, { loading: true });

export const useLogin = () => useMutation({ mutationFn: login });

/** Creates a demo account, then logs in with its demo_id. */
export async function loginDemo(): Promise<Session> {
  const demo = await call(createDemoAccount, undefined, { loading: true });
  return login({ demo_id: demo.demo_id });
}

export const useLoginDemo = () => useMutation({ mutationFn: loginDemo });
