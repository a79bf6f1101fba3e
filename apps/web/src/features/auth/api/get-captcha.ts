import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export interface Captcha {
  id: string;
  b64s: string;
}

/** GET /api/user/captcha: a new captcha image (PNG data URL) and its id. */
export const getCaptcha = () => apiGet<Captcha>('/api/user/captcha');

export const getCaptchaQueryOptions = () =>
  queryOptions({ queryKey: ['user', 'captcha'], queryFn: getCaptcha, staleTime: 0, gcTime: 0 });

export const useCaptcha = (enabled: boolean) => useQuery({ ...getCaptchaQueryOptions(), enabled });
