import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

/** GET /api/user/totp/status: with two-factor sign-in on, a withdrawal needs an authenticator code. */
export const getTwoFactorStatus = () => apiGet<{ enabled: boolean }>('/api/user/totp/status');

export const useTwoFactorStatus = () => useQuery({ queryKey: ['user', 'totp', 'status'], queryFn: getTwoFactorStatus });
