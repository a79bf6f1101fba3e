import { useMutation } from '@tanstack/react-query';
import { amendPassword as amendPasswordEndpoint } from '@tp/contract/endpoints/auth';
import type { AmendPasswordInputValue } from '@tp/contract/schemas/auth';
import { call } from '../../../lib/api-client';

/** What the password form sends: the contract's parsed input. */
export type AmendPasswordInput = AmendPasswordInputValue;

/** With a code sent (type 2) to the user's own email or phone. */
export const amendPassword = (input: AmendPasswordInput) => call(amendPasswordEndpoint, input, { loading: true, showSuccessMessage: true });

export const useAmendPassword = () => useMutation({ mutationFn: amendPassword });
