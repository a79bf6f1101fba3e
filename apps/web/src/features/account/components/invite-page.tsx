import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/ui/copy-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { QrCode } from '../../../components/ui/qr-code';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatDateTime } from '../../../lib/format';
import { isDemoUser, useSessionStore } from '../../../lib/session-store';
import { useInviteList } from '../api/get-invite-list';

function InviteContent() {
  const { t } = useTranslation();
  const user = useSessionStore((state) => state.user);
  const code = user?.invite_code ?? '';
  const link = `${window.location.origin}/register?invite_code=${encodeURIComponent(code)}`;
  const list = useInviteList(!isDemoUser(user));
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-4">
      <section className="flex flex-col gap-4 rounded-xl bg-surface p-4">
        <QrCode value={link} label={t('account.invite_qr')} />
        <div className="flex items-center gap-2">
          <span className="flex min-w-0 flex-1 flex-col">
            <span className="text-xs text-muted">{t('account.invite_code')}</span>
            <span className="font-mono text-lg" data-testid="invite-code">{code}</span>
          </span>
          <CopyButton text={code} label={t('account.copy_code')} />
        </div>
        <div className="flex items-center gap-2">
          <span className="flex min-w-0 flex-1 flex-col">
            <span className="text-xs text-muted">{t('account.invite_link')}</span>
            <span className="break-all text-sm" dir="ltr">{link}</span>
          </span>
          <CopyButton text={link} label={t('account.copy_link')} />
        </div>
      </section>
      <h2 className="text-sm font-medium text-muted">{t('account.invited_list')}</h2>
      {list.isPending ? (
        <SkeletonRows rows={3} />
      ) : rows.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <ul className="divide-y divide-border rounded-xl bg-surface">
            {rows.map((row) => (
              <li key={row.uid} className="flex items-center gap-3 px-4 py-3 text-sm">
                <span className="flex-1">{row.email || row.mobile}</span>
                <span className="text-xs text-muted">{formatDateTime(row.created_at)}</span>
              </li>
            ))}
          </ul>
          <LoadMore hasMore={Boolean(list.hasNextPage)} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} label={t('account.load_more')} />
        </>
      )}
    </div>
  );
}

/** /mine/invite: my invite code, link and QR code, and who registered with it. */
export function InvitePage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.invite')} />
      <RealAccountOnly>
        <InviteContent />
      </RealAccountOnly>
    </>
  );
}
