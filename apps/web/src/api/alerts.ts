import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InputOf, OutputOf } from '@tp/contract/endpoint';
import { alertAdd, alertDelete, alerts } from '@tp/contract/endpoints/trading';
import { call, queryKey } from '../lib/api-client';

/** Price alerts: set from the trade screen, listed next to the positions. */
export type AlertList = OutputOf<typeof alerts>;
export type AlertAddInput = InputOf<typeof alertAdd>;

const ALERT_LIST_LIMIT = 100;

export const alertsQueryKey = () => queryKey(alerts);

export const getAlertsQueryOptions = () =>
  queryOptions({
    queryKey: alertsQueryKey(),
    queryFn: ({ signal }) => call(alerts, { page: 1, limit: ALERT_LIST_LIMIT }, { signal, showErrorMessage: false }),
    staleTime: 0,
  });

export const useAlerts = () => useQuery(getAlertsQueryOptions());

export function useAddAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AlertAddInput) => call(alertAdd, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertsQueryKey() }),
  });
}

export function useDeleteAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(alertDelete, { id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertsQueryKey() }),
  });
}
