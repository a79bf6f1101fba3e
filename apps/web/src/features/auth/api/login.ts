import { useMutation } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { login as loginEndpoint } from '@tp/contract/endpoints/auth';
import { createDemoAccount } from '@tp/contract/endpoints/trading';
import type { LoginInputValue } from '@tp/contract/schemas/auth';
import { call } from '../../../lib/api-client';

export type Session = OutputOf<typeof loginEndpoint>;

/** What the sign-in forms send: the contract's parsed input (account and password, or demo_id). */
export type LoginInput = LoginInputValue;

/** Account and password, or demo_id (sent as a form). */
export const login = (input: LoginInput) => call(loginEndpoint, input, { loading: true });

export const useLogin = () => useMutation({ mutationFn: login });

/** Creates a demo account, then logs in with its demo_id. */
export async function loginDemo(): Promise<Session> {
  const demo = await call(createDemoAccount, undefined, { loading: true });
  return login({ demo_id: demo.demo_id });
}

export const useLoginDemo = () => useMutation({ mutationFn: loginDemo });
