import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@tp/contract/constants';
import type { Endpoint, OutputOf } from '@tp/contract/endpoint';
import { apply, clients, commissions, payouts, requestPayout, summary } from '@tp/contract/endpoints/partners';
import { call, queryKey } from '../../../lib/api-client';

export type PartnerSummary = OutputOf<typeof summary>;
export type PartnerClient = OutputOf<typeof clients>['data'][number];
export type PartnerCommission = OutputOf<typeof commissions>['data'][number];
export type PartnerPayout = OutputOf<typeof payouts>['data'][number];

/** The partner area's figures (status, code, clients, volume, commission totals). */
export const usePartnerSummary = () =>
  useQuery(
    queryOptions({ queryKey: queryKey(summary), queryFn: ({ signal }) => call(summary, undefined, { signal, showErrorMessage: false }) }),
  );

type PagedEndpoint = typeof clients | typeof commissions | typeof payouts;

/** One of the partner's paged lists, loaded page by page. */
function usePaged<E extends PagedEndpoint>(endpoint: E, enabled: boolean) {
  return useInfiniteQuery({
    ...infiniteQueryOptions({
      queryKey: queryKey(endpoint as Endpoint),
      queryFn: ({ pageParam, signal }) =>
        call(endpoint as typeof clients, { page: pageParam, limit: DEFAULT_PAGE_SIZE }, { signal, showErrorMessage: false }) as Promise<
          OutputOf<E>
        >,
      initialPageParam: 1,
      getNextPageParam: (last: OutputOf<E>, pages: OutputOf<E>[]) =>
        pages.reduce((n, p) => n + p.data.length, 0) < last.total && last.data.length > 0 ? pages.length + 1 : undefined,
    }),
    enabled,
  });
}

export const usePartnerClients = (enabled: boolean) => usePaged(clients, enabled);
export const usePartnerCommissions = (enabled: boolean) => usePaged(commissions, enabled);
export const usePartnerPayouts = (enabled: boolean) => usePaged(payouts, enabled);

/** Applies to be a partner; staff approve. */
export function useApplyPartner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(apply, undefined, { loading: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKey(summary) }),
  });
}

/** Asks for commission to be paid to the trading balance (staff approve). */
export function useRequestPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (amount: string) => call(requestPayout, { amount }, { loading: true }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKey(summary) }),
        queryClient.invalidateQueries({ queryKey: queryKey(payouts) }),
      ]),
  });
}
