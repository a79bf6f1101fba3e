import { useMutation } from '@tanstack/react-query';
import { register as registerEndpoint } from '@tp/contract/endpoints/auth';
import type { RegisterInputValue } from '@tp/contract/schemas/auth';
import { call } from '../../../lib/api-client';

/** What the registration form sends: the contract's parsed input. */
export type RegisterInput = RegisterInputValue;

/** Creates a real account and answers its session (sent as a form). */
export const register = (input: RegisterInput) => call(registerEndpoint, input, { loading: true });

export const useRegister = () => useMutation({ mutationFn: register });
