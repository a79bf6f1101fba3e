import { useEffect, useEffectEvent, useRef } from 'react';

/**
 * Paging by scroll: returns a ref for a sentinel placed after the list; `onReachEnd` runs when it
 * comes within `rootMargin` of the viewport while `enabled` (a next page exists, none loading).
 */
export function useInfiniteScroll<T extends Element>(enabled: boolean, onReachEnd: () => void, rootMargin = '200px') {
  const sentinel = useRef<T>(null);
  const reachEnd = useEffectEvent(onReachEnd);
  useEffect(() => {
    const node = sentinel.current;
    if (!enabled || !node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) reachEnd();
    }, { rootMargin });
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled, rootMargin]);
  return sentinel;
}
