import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { tradeListQueryKey } from '../../api/get-trade-list';
import { useIsDesktop } from '../../lib/device';
import { featureTranslations } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { useSessionStore } from '../../lib/session-store';
import { socket } from '../../lib/socket';
import { useRouteHandle } from '../route-handle';
import { KeepAliveOutlet } from './keep-alive-outlet';
import { MobileLayout } from './mobile-layout';

// Phones never load the desktop frame (main.tsx starts fetching it at once on a desktop).
const DesktopLayout = lazy(() => import('./desktop-layout').then((m) => ({ default: m.DesktopLayout })));

// Loaded once a trader is logged in, so the boot chunk stays lean for guests.
const NoticeListener = lazy(() =>
  Promise.all([import('../../features/account/components/notice-listener'), featureTranslations()]).then(([m]) => ({
    default: m.NoticeListener,
  })),
);

/** Work done on every navigation (spec section 2), then the desktop or mobile frame. */
export function DesktopOrMobileRoot() {
  const location = useLocation();
  const handle = useRouteHandle();
  const firstNavigation = useRef(true);
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  const desktop = useIsDesktop();

  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [location.key]);

  useEffect(() => {
    socket.start();
    if (firstNavigation.current) {
      firstNavigation.current = false;
      return;
    }
    if (location.pathname === '/' || location.pathname === '/trade') {
      void queryClient.invalidateQueries({ queryKey: tradeListQueryKey });
    }
  }, [location.key, location.pathname]);

  const content = (
    <>
      {loggedIn && (
        <Suspense fallback={null}>
          <NoticeListener />
        </Suspense>
      )}
      <KeepAliveOutlet />
    </>
  );
  if (desktop)
    return (
      <Suspense fallback={null}>
        <DesktopLayout>{content}</DesktopLayout>
      </Suspense>
    );
  return <MobileLayout tabBar={Boolean(handle.tabBar)}>{content}</MobileLayout>;
}
