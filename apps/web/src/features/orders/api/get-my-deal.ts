import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { getMyDeal, myDealQueryKey } from '../../../api/open-orders';

export { getMyDeal, getOpenOrdersQueryOptions, myDealQueryKey, useOpenOrders, type MyDeal, type OrderTab } from '../../../api/open-orders';

export const HISTORY_PAGE_SIZE = 10;

export const getOrderHistoryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: myDealQueryKey(3),
    queryFn: ({ pageParam, signal }) => getMyDeal({ status: 3, page: pageParam, limit: HISTORY_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * HISTORY_PAGE_SIZE < last.total ? pages.length + 1 : undefined),
    staleTime: 0,
  });

export const useOrderHistory = () => useInfiniteQuery(getOrderHistoryQueryOptions());
