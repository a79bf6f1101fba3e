import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { myDeal } from '@tp/contract/endpoints/trading';
import { call, queryKey } from '../lib/api-client';

export type MyDeal = OutputOf<typeof myDeal>;

/** 1 holding, 0 pending, 3 history (closed and cancelled). */
export type OrderTab = 1 | 0 | 3;

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

/** Open positions (1) or pending orders (0), shared by the order lists and the chart's order lines. */
export const useOpenOrders = (status: 1 | 0, enabled = true) => useQuery({ ...getOpenOrdersQueryOptions(status), enabled });
