import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { loginPath } from '../../lib/navigation';
import { isDemoUser, useSessionStore } from '../../lib/session-store';

/** Demo users are blocked from real-account pages (spec section 6): they are asked to register or log into a real account. */
export function RealAccountOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useSessionStore((state) => state.user);
  const { pathname, search } = useLocation();
  if (!isDemoUser(user)) return children;
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-5 px-6 py-16 text-center">
      <p className="text-text">{t('messages.only_real_account')}</p>
      <div className="flex w-full gap-3">
        <Link to="/register" className="flex flex-1 justify-center rounded-lg bg-accent px-4 py-2.5 text-sm font-medium text-on-accent">
          {t('pages.register')}
        </Link>
        <Link
          to={loginPath(`${pathname}${search}`)}
          className="flex flex-1 justify-center rounded-lg bg-surface-2 px-4 py-2.5 text-sm font-medium text-text"
        >
          {t('pages.login')}
        </Link>
      </div>
    </div>
  );
}
