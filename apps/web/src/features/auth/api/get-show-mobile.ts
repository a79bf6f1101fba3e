import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

/** GET /api/default/setting?key=is_show_mobile: whether phone accounts are offered ('1'). */
export const getShowMobile = async () =>
  (await apiGet<string>('/api/default/setting', { key: 'is_show_mobile' }, { showErrorMessage: false })) === '1';

export const getShowMobileQueryOptions = () => queryOptions({ queryKey: ['default', 'setting', 'is_show_mobile'], queryFn: getShowMobile });

export const useShowMobile = () => useQuery(getShowMobileQueryOptions());
