import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/ui/toast-store';
import { apiRequest, type QueryParams } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import type { AdminKey } from '../components/dynamic-key';
import { refreshStaffQueries, STAFF_QUERY_META } from './admin-client';

/*
 * Staff calls of other modules (identity, content, funding, support) whose endpoints are not in the
 * endpoint table yet: they are called by path until those modules are converted, then move to
 * useStaffQuery / useStaffMutation of admin-client.ts and this file goes.
 */

export interface Page<T> {
  data: T[];
  total: number;
}

const clean = (params: QueryParams = {}): QueryParams => Object.fromEntries(Object.entries(params).filter(([, v]) => v !== ''));

export const staffGet = <T>(path: string, params?: QueryParams) =>
  apiRequest<T>('GET', path, { params: clean(params) }, { session: 'staff', showErrorMessage: false });

export function useStaffPathQuery<T>(path: string, params: QueryParams = {}) {
  return useQuery({ queryKey: [path, clean(params)], queryFn: () => staffGet<T>(path, params), meta: STAFF_QUERY_META, staleTime: 0 });
}

export function useStaffPathMutation<T = unknown, P extends object = Record<string, unknown>>(path: string, successMessage: AdminKey = 'admin.saved') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: P) => apiRequest<T>('POST', path, { body: params }, { session: 'staff', bodyType: 'json' }),
    onSuccess: () => {
      toast(i18n.t(successMessage), 'success');
      return refreshStaffQueries(queryClient);
    },
  });
}
