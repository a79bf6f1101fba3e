import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { myDeal } from '@tp/contract/endpoints/trading';
import { call, queryKey } from '../../../lib/api-client';

export type MyDeal = OutputOf<typeof myDeal>;

/** 1 holding, 0 pending, 3 history (closed and cancelled). */
export type OrderTab = 1 | 0 | 3;

export const HISTORY_PAGE_SIZE = 10;
/** Holding and pending lists are read whole (the server's page limit). */
const OPEN_LIST_LIMIT = 100;

export const myDealQueryKey = (status: OrderTab) => [...queryKey(myDeal), { status }] as const;

export const getMyDeal = (params: { status: OrderTab; page: number; limit: number }, signal?: AbortSignal) =>
  call(myDeal, params, { signal, showErrorMessage: false });

export const getOpenOrdersQueryOptions = (status: 1 | 0) =>
  queryOptions({
    queryKey: myDealQueryKey(status),
    queryFn: ({ signal }) => getMyDeal({ status, page: 1, limit: OPEN_LIST_LIMIT }, signal),
    staleTime: 0,
  });

export const useOpenOrders = (status: 1 | 0) => useQuery(getOpenOrdersQueryOptions(status));

export const getOrderHistoryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: myDealQueryKey(3),
    queryFn: ({ pageParam, signal }) => getMyDeal({ status: 3, page: pageParam, limit: HISTORY_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * HISTORY_PAGE_SIZE < last.total ? pages.length + 1 : undefined),
    staleTime: 0,
  });

export const useOrderHistory = () => useInfiniteQuery(getOrderHistoryQueryOptions());
