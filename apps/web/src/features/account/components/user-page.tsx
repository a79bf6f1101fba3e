import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ChevronIcon, UserIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { formatMoney } from '../../../lib/format';
import { isDemoUser, useSessionStore } from '../../../lib/session-store';
import { useForexDetail } from '../../../api/get-forex-detail';
import { useResetDemoAccount } from '../api/reset-demo-account';
import { SupportEntry } from './support-entry';
import { NotificationsEntry } from './notifications-entry';

const MENU = [
  { to: '/mine/history', key: 'history' },
  { to: '/mine/statements', key: 'statements' },
  { to: '/mine/charge', key: 'charge' },
  { to: '/mine/withdraw', key: 'withdraw' },
  { to: '/mine/wallet', key: 'wallet' },
  { to: '/mine/auth', key: 'auth' },
  { to: '/mine/invite', key: 'invite' },
  { to: '/mine/partner', key: 'partner' },
  { to: '/mine/password', key: 'password' },
  { to: '/mine/two-factor', key: 'two_factor' },
  { to: '/mine/api-keys', key: 'api_keys' },
  { to: '/mine/email', key: 'email' },
  { to: '/mine/announcement', key: 'announcement' },
] as const;

const MORE = [
  { to: '/news', key: 'news' },
  { to: '/feedback', key: 'feedback' },
  { to: '/language', key: 'language' },
  { to: '/mine/system', key: 'system' },
] as const;

function MenuLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="flex items-center gap-3 px-4 py-3.5 hover:bg-surface">
      <span className="flex-1">{label}</span>
      <ChevronIcon className="size-4 text-muted" />
    </Link>
  );
}

/** The balance card: balance to 2 decimals and net value; a demo account can be reset. */
function BalanceCard({ demo }: { demo: boolean }) {
  const { t } = useTranslation();
  const detail = useForexDetail();
  const reset = useResetDemoAccount();
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-label={t('account.balance_card')} className="mx-4 mb-4 flex flex-col gap-3 rounded-xl bg-surface p-4">
      <div className="flex items-end gap-4">
        <div className="flex flex-1 flex-col gap-1">
          <span className="text-xs text-muted">{t('funding.available')} (USD)</span>
          <span className="text-2xl font-semibold tabular-nums" data-testid="user-balance">
            {detail.isPending ? '--' : formatMoney(detail.data?.balance)}
          </span>
        </div>
        <div className="flex flex-col items-end gap-1">
          <span className="text-xs text-muted">{t('account.net_value')}</span>
          <span className="tabular-nums">{detail.isPending ? '--' : formatMoney(detail.data?.equity)}</span>
        </div>
      </div>
      {detail.isError && (
        <Button variant="ghost" className="self-start px-0 text-xs text-muted" onClick={() => void detail.refetch()}>
          {t('common.retry')}
        </Button>
      )}
      <div className="flex gap-3">
        {demo ? (
          <Button variant="secondary" block onClick={() => setConfirming(true)} disabled={reset.isPending}>
            {t('account.reset_demo')}
          </Button>
        ) : (
          <>
            <Link
              to="/mine/charge"
              className="flex flex-1 justify-center rounded-lg bg-accent px-4 py-2.5 text-sm font-medium text-on-accent"
            >
              {t('pages.charge')}
            </Link>
            <Link
              to="/mine/withdraw"
              className="flex flex-1 justify-center rounded-lg bg-surface-2 px-4 py-2.5 text-sm font-medium text-text"
            >
              {t('pages.withdraw')}
            </Link>
          </>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('account.reset_demo')}
        busy={reset.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => reset.mutate(undefined, { onSettled: () => setConfirming(false) })}
      >
        <p className="text-sm">{t('account.reset_demo_confirm')}</p>
      </ConfirmDialog>
    </section>
  );
}

/** /user (also /mine): the account centre. */
export function UserPage() {
  const { t } = useTranslation();
  const user = useSessionStore((state) => state.user);
  const demo = isDemoUser(user);
  return (
    <>
      <PageHeader title={t('pages.user')} back={false} />
      <div className="mx-auto w-full max-w-3xl">
        {user && (
          <section className="flex items-center gap-3 px-4 py-4">
            <span className="flex size-11 items-center justify-center rounded-full bg-surface-2 text-muted">
              <UserIcon />
            </span>
            <span className="flex min-w-0 flex-1 flex-col gap-0.5">
              {user.email ? (
                // An address reads left to right even in Arabic, and is cut at its end.
                <span dir="ltr" className="max-w-full self-start truncate font-medium [unicode-bidi:isolate]">
                  {user.email}
                </span>
              ) : (
                <span className="truncate font-medium">{t('auth.uid', { uid: user.uid })}</span>
              )}
              {user.email && <span className="text-xs text-muted">{t('auth.uid', { uid: user.uid })}</span>}
            </span>
            <span className={`rounded-full px-2.5 py-1 text-xs ${demo ? 'bg-accent/15 text-accent' : 'bg-up/15 text-up'}`}>
              {demo ? t('auth.demo_account') : t('auth.real_account')}
            </span>
          </section>
        )}
        <BalanceCard demo={demo} />
        <nav aria-label={t('pages.user')}>
          <ul className="divide-y divide-border border-y border-border">
            <li>
              <NotificationsEntry />
            </li>
            {MENU.map((item) => (
              <li key={item.to}>
                <MenuLink to={item.to} label={t(`pages.${item.key}`)} />
              </li>
            ))}
            <li>
              <SupportEntry />
            </li>
            {MORE.map((item) => (
              <li key={item.to}>
                <MenuLink to={item.to} label={t(`pages.${item.key}`)} />
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </>
  );
}
