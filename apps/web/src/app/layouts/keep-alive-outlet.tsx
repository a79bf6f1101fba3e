import { Suspense, useContext, useState, type ContextType, type ReactNode } from 'react';
import { UNSAFE_LocationContext, useOutlet } from 'react-router';
import { PageSpinner } from '../../components/ui/spinner';
import { PageActivityContext } from '../../lib/page-activity';
import { useSessionStore } from '../../lib/session-store';
import { useRouteHandle } from '../route-handle';

type LocationContextValue = ContextType<typeof UNSAFE_LocationContext>;

interface CachedPage {
  key: string;
  element: ReactNode;
  /** The location the page last saw; a hidden page keeps seeing it instead of the current one. */
  location: LocationContextValue;
  requiresAuth: boolean;
}

/**
 * Outlet that keeps the pages flagged `keepAlive` mounted after the user leaves them and hides
 * them with `hidden`, so their state (scroll lists, tabs, forms, queries) survives a round trip.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const locationContext = useContext(UNSAFE_LocationContext);
  const handle = useRouteHandle();
  const token = useSessionStore((state) => state.token);
  const activeKey = handle.keepAlive ?? null;

  const [pages, setPages] = useState<CachedPage[]>([]);
  const [seen, setSeen] = useState<{ locationKey: string; token: string | null } | null>(null);

  // Adjust the cache while rendering when the location or the session changed.
  const locationKey = locationContext.location.key;
  if (!seen || seen.locationKey !== locationKey || seen.token !== token) {
    setSeen({ locationKey, token });
    let next = token ? pages : pages.filter((page) => !page.requiresAuth);
    const requiresAuth = Boolean(handle.requiresAuth);
    if (activeKey && (token || !requiresAuth)) {
      const entry: CachedPage = { key: activeKey, element: outlet, location: locationContext, requiresAuth };
      next = next.some((page) => page.key === activeKey) ? next.map((page) => (page.key === activeKey ? entry : page)) : [...next, entry];
    }
    setPages(next);
  }

  return (
    <>
      {pages.map((page) => {
        const active = page.key === activeKey;
        return (
          <div key={page.key} hidden={!active} data-keep-alive={page.key}>
            <PageActivityContext.Provider value={active}>
              <UNSAFE_LocationContext.Provider value={active ? locationContext : page.location}>
                <Suspense fallback={<PageSpinner />}>{active ? outlet : page.element}</Suspense>
              </UNSAFE_LocationContext.Provider>
            </PageActivityContext.Provider>
          </div>
        );
      })}
      {!pages.some((page) => page.key === activeKey) && (
        <div key="outlet">
          <Suspense fallback={<PageSpinner />}>{outlet}</Suspense>
        </div>
      )}
    </>
  );
}
