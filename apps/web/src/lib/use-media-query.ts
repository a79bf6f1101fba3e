import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now; follows changes (a window resized past a breakpoint). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', listener);
      return () => list.removeEventListener('change', listener);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** The quote board's table layout starts at this width. */
export const WIDE_SCREEN = '(min-width: 1024px)';
