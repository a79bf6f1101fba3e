import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ChevronIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { toast } from '../../../components/ui/toast-store';
import { loginPath } from '../../../lib/navigation';
import { isDemoUser, useSessionStore } from '../../../lib/session-store';
import { logoutOnServer } from '../api/logout';

/** /mine/system: settings and logout. Logout (asked first for a demo account) clears the session and returns home. */
export function SystemPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  const demo = useSessionStore((state) => isDemoUser(state.user));
  const logout = useSessionStore((state) => state.logout);
  // A demo account cannot be signed into again: ask first.
  const [confirming, setConfirming] = useState(false);

  const onLogout = () => {
    setConfirming(false);
    void logoutOnServer();
    logout();
    toast(t('messages.logout_success'), 'success');
    navigate('/', { replace: true });
  };

  return (
    <>
      <PageHeader title={t('pages.system')} />
      <ul className="divide-y divide-border border-b border-border">
        <li>
          <Link to="/language" className="flex items-center gap-3 px-4 py-3.5 hover:bg-surface">
            <span className="flex-1">{t('pages.language')}</span>
            <ChevronIcon className="size-4 text-muted" />
          </Link>
        </li>
      </ul>
      <div className="p-4">
        {loggedIn ? (
          <Button variant="danger" block onClick={demo ? () => setConfirming(true) : onLogout}>
            {t('auth.logout')}
          </Button>
        ) : (
          <Link
            to={loginPath(`${pathname}${search}`)}
            className="flex w-full justify-center rounded-lg bg-accent px-4 py-2.5 text-sm font-medium text-on-accent"
          >
            {t('nav.login')}
          </Link>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('account.logout_demo_title')}
        danger
        confirmLabel={t('auth.logout')}
        onCancel={() => setConfirming(false)}
        onConfirm={onLogout}
      >
        <p className="text-sm">{t('account.logout_demo_body')}</p>
      </ConfirmDialog>
    </>
  );
}
