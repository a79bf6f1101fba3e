import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { captcha } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../../../lib/api-client';

export type Captcha = OutputOf<typeof captcha>;

/** A new captcha image (PNG data URL) and its id. */
export const getCaptcha = () => call(captcha, undefined);

export const getCaptchaQueryOptions = () => queryOptions({ queryKey: queryKey(captcha), queryFn: getCaptcha, staleTime: 0, gcTime: 0 });

export const useCaptcha = (enabled: boolean) => useQuery({ ...getCaptchaQueryOptions(), enabled });
