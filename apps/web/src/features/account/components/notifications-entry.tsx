import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronIcon } from '../../../components/ui/icons';
import { useNotifications } from '../api/get-notices';
import { useLastSeen } from './notice-settings';

/** The user centre's link to the notification list, with the count of items newer than the last visit. */
export function NotificationsEntry() {
  const { t } = useTranslation();
  const list = useNotifications();
  const seen = useLastSeen();
  const unread = list.data?.filter((item) => item.time > seen).length ?? 0;
  return (
    <Link to="/mine/notifications" className="flex items-center gap-3 px-4 py-3.5 hover:bg-surface">
      <span className="flex-1">{t('account.notifications')}</span>
      {unread > 0 && (
        <span
          className="rounded-full bg-down px-2 py-0.5 text-xs text-bg tabular-nums"
          data-testid="unread-count"
          aria-label={t('account.unread_count', { count: unread })}
        >
          {unread}
        </span>
      )}
      <ChevronIcon className="size-4 text-muted" />
    </Link>
  );
}
