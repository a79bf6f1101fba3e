import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ChevronIcon, UserIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { isDemoUser, useSessionStore } from '../../../lib/session-store';

const MENU = [
  { to: '/mine/history', key: 'history' },
  { to: '/mine/charge', key: 'charge' },
  { to: '/mine/withdraw', key: 'withdraw' },
  { to: '/mine/wallet', key: 'wallet' },
  { to: '/mine/auth', key: 'auth' },
  { to: '/mine/invite', key: 'invite' },
  { to: '/mine/password', key: 'password' },
  { to: '/mine/email', key: 'email' },
  { to: '/mine/announcement', key: 'announcement' },
  { to: '/mine/chat', key: 'chat' },
  { to: '/feedback', key: 'feedback' },
  { to: '/language', key: 'language' },
  { to: '/mine/system', key: 'system' },
] as const;

/** /user (also /mine): the account centre; balances and demo reset come with the account issue. */
export function UserPage() {
  const { t } = useTranslation();
  const user = useSessionStore((state) => state.user);
  return (
    <>
      <PageHeader title={t('pages.user')} back={false} />
      {user && (
        <section className="flex items-center gap-3 px-4 py-4">
          <span className="flex size-11 items-center justify-center rounded-full bg-surface-2 text-muted">
            <UserIcon />
          </span>
          <span className="flex min-w-0 flex-col gap-0.5">
            <span className="truncate font-medium">{user.email}</span>
            <span className="text-xs text-muted">{t('auth.uid', { uid: user.uid })}</span>
            <span className="text-xs text-accent">{isDemoUser(user) ? t('auth.demo_account') : t('auth.real_account')}</span>
          </span>
        </section>
      )}
      <nav aria-label={t('pages.user')}>
        <ul className="divide-y divide-border border-y border-border">
          {MENU.map((item) => (
            <li key={item.to}>
              <Link to={item.to} className="flex items-center gap-3 px-4 py-3.5 hover:bg-surface">
                <span className="flex-1">{t(`pages.${item.key}`)}</span>
                <ChevronIcon className="size-4 text-muted" />
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}
