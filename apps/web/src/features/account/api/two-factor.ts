import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api-client';

export interface TotpSetup {
  secret: string;
  otpauth_url: string;
}

const statusKey = ['user', 'totp', 'status'] as const;

/** GET /api/user/totp/status: whether two-factor sign-in is on. */
export const getTwoFactorStatus = () => apiGet<{ enabled: boolean }>('/api/user/totp/status');
export const useTwoFactorStatus = () => useQuery({ queryKey: statusKey, queryFn: getTwoFactorStatus });

/** POST /api/user/totp/setup: the secret and its otpauth URL for the QR code. */
export const setupTwoFactor = () => apiPost<TotpSetup>('/api/user/totp/setup', {}, { loading: true });
export const useSetupTwoFactor = () => useMutation({ mutationFn: setupTwoFactor });

/** POST /api/user/totp/enable or /disable with a code from the authenticator. */
export function useSwitchTwoFactor(on: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiPost<null>(on ? '/api/user/totp/enable' : '/api/user/totp/disable', { code }, { loading: true, showSuccessMessage: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: statusKey }),
  });
}
