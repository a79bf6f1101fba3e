import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { ConnectionIndicator } from '../../components/ui/connection-indicator';
import { GlobeIcon, SearchIcon } from '../../components/ui/icons';
import { useSessionStore } from '../../lib/session-store';
import { useRouteHandle } from '../route-handle';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `inline-flex items-center gap-1.5 rounded-md px-3 py-2 text-sm ${isActive ? 'bg-surface-2 text-accent' : 'text-muted hover:text-text'}`;

/**
 * Desktop frame: top bar with the name and navigation, content in a centred container; a `wide`
 * route (the trading terminal) gets the whole window width under the bar instead.
 */
export function DesktopLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  const wide = Boolean(useRouteHandle().wide);
  return (
    <div className="min-h-dvh bg-bg [--header-offset:3.5rem]">
      <header className="sticky top-0 z-40 border-b border-border bg-surface">
        <div className={`mx-auto flex h-14 items-center gap-6 ${wide ? 'px-4' : 'max-w-6xl px-6'}`}>
          <Link to="/" className="text-lg font-bold text-accent">
            {t('common.app_name')}
          </Link>
          <nav aria-label={t('nav.main')} className="flex flex-1 items-center">
            <ul className="flex items-center gap-1">
              <li>
                <NavLink to="/" end className={linkClass}>
                  {t('nav.quotes')}
                </NavLink>
              </li>
              <li>
                <NavLink to="/trade" className={linkClass}>
                  {t('nav.trade')}
                </NavLink>
              </li>
              <li>
                <NavLink to="/order" className={linkClass}>
                  {t('nav.orders')}
                </NavLink>
              </li>
              <li>
                <NavLink to="/news" className={linkClass}>
                  {t('nav.news')}
                </NavLink>
              </li>
              <li>
                <NavLink to="/rank" className={linkClass}>
                  {t('nav.ranking')}
                </NavLink>
              </li>
            </ul>
            <ul className="ms-auto flex items-center gap-1">
              <li>
                <NavLink to="/product" aria-label={t('home.search')} title={t('home.search')} className={linkClass}>
                  <SearchIcon className="size-4" />
                </NavLink>
              </li>
              <li>
                <ConnectionIndicator />
              </li>
              <li>
                <NavLink to={loggedIn ? '/user' : '/login'} className={linkClass}>
                  {loggedIn ? t('nav.user') : t('nav.login')}
                </NavLink>
              </li>
              <li>
                <NavLink to="/language" className={linkClass}>
                  <GlobeIcon className="size-4" />
                  {t('nav.language')}
                </NavLink>
              </li>
            </ul>
          </nav>
        </div>
      </header>
      {/* One tree for both widths, so the kept-alive pages are not mounted again when the width changes. */}
      <main className={wide ? 'w-full' : 'mx-auto w-full max-w-6xl px-6 py-6'}>
        <div className={wide ? 'bg-bg' : 'overflow-clip rounded-xl border border-border bg-bg'}>{children}</div>
      </main>
    </div>
  );
}
