import { useMatches } from 'react-router';

/** Per-route flags read by the layouts (set in router.tsx). */
export interface RouteHandle {
  /** Pages with the same key share one kept-alive instance (/user and /mine). */
  keepAlive?: string;
  /** Shows the footer tab bar on mobile. */
  tabBar?: boolean;
  /** The kept-alive instance is dropped on logout. */
  requiresAuth?: boolean;
  /** Desktop: the page uses the whole window width (the trading terminal), not the centred column. */
  wide?: boolean;
}

export function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  return (matches[matches.length - 1]?.handle ?? {}) as RouteHandle;
}
