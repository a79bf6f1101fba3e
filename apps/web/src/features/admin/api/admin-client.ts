import { type Query, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Endpoint, InputOf, OutputOf } from '@tp/contract/endpoint';
import { toast } from '../../../components/ui/toast-store';
import { call, queryKey } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import type { AdminKey } from '../components/dynamic-key';

/** Marks the back office's queries, so that a staff change refreshes every screen of it. */
export const STAFF_QUERY_META = { staff: true } as const;
const isStaffQuery = (query: Query) => query.meta?.staff === true;

/** Refreshes every back office query (after any staff change: the screens show one another's data). */
export const refreshStaffQueries = (queryClient: QueryClient) => queryClient.invalidateQueries({ predicate: isStaffQuery });

/** A blank filter means no filter: the back office's forms leave empty fields empty. */
function withoutBlanks<I>(input: I): I {
  if (typeof input !== 'object' || input === null) return input;
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== '' && v !== undefined && v !== null)) as I;
}

/** A read of the back office, cached under `queryKey(endpoint, input)`; the screen shows its errors. */
export function useStaffQuery<E extends Endpoint>(endpoint: E, input: InputOf<E>, options: { enabled?: boolean; refetchInterval?: number } = {}) {
  const sent = withoutBlanks(input);
  return useQuery({
    queryKey: queryKey(endpoint, sent),
    queryFn: () => call(endpoint, sent, { showErrorMessage: false }),
    meta: STAFF_QUERY_META,
    staleTime: 0,
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchInterval,
    refetchIntervalInBackground: false,
  });
}

/** A change of the back office: toasts `successMessage` and refreshes every back office query when it succeeds. */
export function useStaffMutation<E extends Endpoint>(endpoint: E, successMessage: AdminKey = 'admin.saved') {
  const queryClient = useQueryClient();
  return useMutation<OutputOf<E>, Error, InputOf<E>>({
    mutationFn: (input) => call(endpoint, input),
    onSuccess: () => {
      toast(i18n.t(successMessage), 'success');
      return refreshStaffQueries(queryClient);
    },
  });
}
