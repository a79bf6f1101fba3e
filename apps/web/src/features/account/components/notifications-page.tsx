import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { PageHeader } from '../../../components/ui/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatDateTime } from '../../../lib/format';
import { useNotifications, type NotificationItem } from '../api/get-notices';
import { itemText } from './notice-text';
import { lastSeen, markSeen, setSoundEnabled, useSoundEnabled } from './notice-settings';
import { PushSettings } from './push-settings';

function SoundSwitch() {
  const { t } = useTranslation();
  const on = useSoundEnabled();
  return (
    <label className="flex items-center justify-between gap-3 border-b border-border px-4 py-3.5">
      <span className="flex flex-col">
        <span>{t('account.notice_sound')}</span>
        <span className="text-xs text-muted">{t('account.notice_sound_hint')}</span>
      </span>
      <input
        type="checkbox"
        role="switch"
        checked={on}
        onChange={(e) => setSoundEnabled(e.target.checked)}
        className="size-5 accent-accent"
      />
    </label>
  );
}

function Row({ item, unread }: { item: NotificationItem; unread: boolean }) {
  const { t } = useTranslation();
  const loss = item.kind === 'notice' && Number(item.notice.profit) < 0;
  return (
    <li className="flex gap-3 px-4 py-3" data-testid="notification">
      <span aria-hidden="true" className={`mt-1.5 size-2 shrink-0 rounded-full ${unread ? 'bg-accent' : 'bg-transparent'}`} />
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className={`text-sm ${loss ? 'text-down' : ''}`}>{itemText(t, item)}</span>
        <span className="text-xs text-muted tabular-nums">
          {formatDateTime(item.time * 1000)}
          {unread && <span className="sr-only">{` · ${t('account.unread')}`}</span>}
        </span>
      </span>
    </li>
  );
}

/** /mine/notifications: closes, fills, fired price alerts and account events (deposits, withdrawals, identity, support) from the server, newest first; opening it marks them read. */
export function NotificationsPage() {
  const { t } = useTranslation();
  const list = useNotifications();
  const newest = list.data?.[0]?.time ?? 0;
  // What was unread when the page opened stays marked until the trader leaves.
  const [seenWhenOpened] = useState(lastSeen);
  useEffect(() => {
    if (newest > 0) markSeen(newest);
  }, [newest]);

  return (
    <>
      <PageHeader title={t('account.notifications')} />
      <div className="mx-auto w-full max-w-3xl">
        <PushSettings />
        <SoundSwitch />
        {list.isPending ? (
          <SkeletonRows />
        ) : list.isError ? (
          <ErrorState onRetry={() => void list.refetch()} />
        ) : list.data.length === 0 ? (
          <EmptyState message={t('account.notifications_empty')} />
        ) : (
          <ul className="divide-y divide-border" aria-label={t('account.notifications')}>
            {list.data.map((item, i) => (
              // Account notices (order_id 0) of one kind may share a second: the position keeps their keys apart.
              <Row
                key={`${item.kind}-${item.kind === 'notice' ? `${item.notice.order_id}-${item.notice.kind}-${item.time}-${i}` : item.alert.id}`}
                item={item}
                unread={item.time > seenWhenOpened}
              />
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
