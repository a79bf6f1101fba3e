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

/** The query options of a back office read: cached under `queryKey(endpoint, input)`; the screen shows its errors. */
export function staffQueryOptions<E extends Endpoint>(endpoint: E, input: InputOf<E>) {
  const sent = withoutBlanks(input);
  return {
    queryKey: queryKey(endpoint, sent),
    queryFn: () => call(endpoint, sent, { showErrorMessage: false }),
    meta: STAFF_QUERY_META,
    staleTime: 0,
  };
}

export function useStaffQuery<E extends Endpoint>(
  endpoint: E,
  input: InputOf<E>,
  options: { enabled?: boolean; refetchInterval?: number } = {},
) {
  return useQuery({
    ...staffQueryOptions(endpoint, input),
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchInterval,
    refetchIntervalInBackground: false,
  });
}

/** A save of money rules under four-eyes: the server kept it as a proposal for a second member to approve. */
export const isPendingChange = (data: unknown): data is { pending_change_id: number } =>
  typeof data === 'object' && data !== null && 'pending_change_id' in data;

/**
 * The mutation options of a back office change: toasts `successMessage` (or that the change was sent
 * for approval, when the server answers a pending change) and refreshes every back office query when it succeeds.
 */
export function staffMutationOptions<E extends Endpoint>(endpoint: E, queryClient: QueryClient, successMessage: AdminKey = 'admin.saved') {
  return {
    mutationFn: (input: InputOf<E>): Promise<OutputOf<E>> => call(endpoint, input),
    onSuccess: (data: OutputOf<E>) => {
      toast(i18n.t(isPendingChange(data) ? 'admin.changes.sent' : successMessage), 'success');
      return refreshStaffQueries(queryClient);
    },
  };
}

export function useStaffMutation<E extends Endpoint>(endpoint: E, successMessage: AdminKey = 'admin.saved') {
  const queryClient = useQueryClient();
  return useMutation<OutputOf<E>, Error, InputOf<E>>(staffMutationOptions(endpoint, queryClient, successMessage));
}
