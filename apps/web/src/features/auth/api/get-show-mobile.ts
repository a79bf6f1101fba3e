import { queryOptions, useQuery } from '@tanstack/react-query';
import { setting } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../../../lib/api-client';

const input = { key: 'is_show_mobile' };

/** Whether phone accounts are offered (the public setting is_show_mobile is '1'). */
export const getShowMobile = async () => (await call(setting, input, { showErrorMessage: false })) === '1';

export const getShowMobileQueryOptions = () => queryOptions({ queryKey: queryKey(setting, input), queryFn: getShowMobile });

export const useShowMobile = () => useQuery(getShowMobileQueryOptions());
