import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InputOf } from '@tp/contract/endpoint';
import {
  followList,
  followMine,
  followPause,
  followProfile,
  followProviderEnable,
  followSubscribe,
  followUnsubscribe,
} from '@tp/contract/endpoints/social';
import { call, queryKey } from '../../../lib/api-client';

/** A trader's statistics and equity curve (anyone may look; signed in, it says whether they are followed). */
export const getTraderProfileQueryOptions = (id: number | null) =>
  queryOptions({
    queryKey: queryKey(followProfile, { id: id ?? 0 }),
    queryFn: () => call(followProfile, { id: id! }, { showErrorMessage: false }),
    enabled: id !== null,
    retry: false,
  });
export const useTraderProfile = (id: number | null) => useQuery(getTraderProfileQueryOptions(id));

/** The traders the user copies. */
export const getMyCopiesQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: queryKey(followMine), queryFn: () => call(followMine, undefined), enabled });
export const useMyCopies = (enabled = true) => useQuery(getMyCopiesQueryOptions(enabled));

/** After any change: the user's copies, the profiles and the lists (followers) are read again. */
function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKey(followMine) }),
      client.invalidateQueries({ queryKey: [followProfile.path] }),
      client.invalidateQueries({ queryKey: queryKey(followList) }),
    ]);
}

export type SubscribeInput = InputOf<typeof followSubscribe>;

/** Starts (or changes) copying; refusals are shown in the sheet. */
export function useSubscribe() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: SubscribeInput) => call(followSubscribe, input, { loading: true, showErrorMessage: false }),
    onSuccess: refresh,
  });
}

export function useUnsubscribe() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: InputOf<typeof followUnsubscribe>) => call(followUnsubscribe, input, { loading: true }),
    onSuccess: refresh,
  });
}

export function usePauseCopy() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: InputOf<typeof followPause>) => call(followPause, input, { loading: true }),
    onSuccess: refresh,
  });
}

/** Opts in (or out) as a strategy provider, with the performance fee. */
export function useProviderEnable() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: InputOf<typeof followProviderEnable>) => call(followProviderEnable, input, { loading: true }),
    onSuccess: refresh,
  });
}
