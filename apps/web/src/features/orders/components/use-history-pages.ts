import { useEffect, useRef } from 'react';
import { useOrderHistory } from '../api/get-my-deal';

/** Order history, a page more each time `sentinel` (the element after the last order) scrolls into view: the phone's cards and the desktop table alike. */
export function useHistoryPages() {
  const history = useOrderHistory();
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return { history, sentinel, hasNextPage };
}
