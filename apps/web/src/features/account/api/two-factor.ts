import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { totpDisable, totpEnable, totpSetup, totpStatus } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../../../lib/api-client';

export type TotpSetup = OutputOf<typeof totpSetup>;

/** The secret and its otpauth URL for the QR code. */
export const setupTwoFactor = () => call(totpSetup, undefined, { loading: true });
export const useSetupTwoFactor = () => useMutation({ mutationFn: setupTwoFactor });

/** Turns two-factor sign-in on or off with a code from the authenticator. */
export function useSwitchTwoFactor(on: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call(on ? totpEnable : totpDisable, { code }, { loading: true, showSuccessMessage: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKey(totpStatus) }),
  });
}
