import { useMutation } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { login as loginEndpoint } from '@tp/contract/endpoints/auth';
import { createDemoAccount } from '@tp/contract/endpoints/trading';
import { call } from '../../../lib/api-client';

export type Session = OutputOf<typeof loginEndpoint>;

/** The fields the sign-in forms send (the contract's input accepts them as text). */
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

/** Account and password, or demo_id (sent as a form). */
export const login = (input: LoginInput) => call(loginEndpoint, input, { loading: true });

export const useLogin = () => useMutation({ mutationFn: login });

/** Creates a demo account, then logs in with its demo_id. */
export async function loginDemo(): Promise<Session> {
  const demo = await call(createDemoAccount, undefined, { loading: true });
  return login({ demo_id: demo.demo_id });
}

export const useLoginDemo = () => useMutation({ mutationFn: loginDemo });
