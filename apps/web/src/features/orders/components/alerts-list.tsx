import { useQueryClient } from '@tanstack/react-query';
import type { Alert } from '@tp/contract/schemas/trading';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { alertsQueryKey, useAlerts, useDeleteAlert } from '../../../api/alerts';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { toast } from '../../../components/ui/toast-store';
import { formatDateTime } from '../../../lib/format';
import { useSocketTopic } from '../../../lib/use-socket';
import { ConfirmDialog } from './confirm-dialog';

function AlertRow({ alert, onDelete }: { alert: Alert; onDelete: () => void }) {
  const { t } = useTranslation();
  const fired = alert.fired_at > 0;
  return (
    <li className="flex items-center gap-3 px-4 py-3" data-alert-id={alert.id} data-testid="alert-row">
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <p className="text-sm">
          <span className="font-medium" dir="ltr">
            {alert.symbol}
          </span>{' '}
          {t(alert.direction === 1 ? 'orders.alert_rises' : 'orders.alert_falls', {
            side: t(`orders.alert_side_${alert.side}`),
            price: alert.price,
          })}
        </p>
        <p className="text-xs text-muted" data-testid="alert-state">
          {fired
            ? t('orders.alert_fired_at', { price: alert.fired_price, time: formatDateTime(alert.fired_at * 1000) })
            : t('orders.alert_waiting')}
          {alert.email === 1 && ` · ${t('orders.alert_by_email')}`}
        </p>
      </div>
      <span className={`rounded px-1.5 py-0.5 text-[11px] font-medium ${fired ? 'bg-accent/15 text-accent' : 'bg-surface-2 text-muted'}`}>
        {fired ? t('orders.alert_fired') : t('orders.alert_active')}
      </span>
      <button type="button" onClick={onDelete} className="rounded-md bg-surface-2 px-3 py-1.5 text-xs font-medium text-down">
        {t('orders.alert_delete')}
      </button>
    </li>
  );
}

/** The trader's price alerts, waiting and fired, each removable; refreshed when one fires. */
export function AlertsList() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useAlerts();
  const remove = useDeleteAlert();
  const [deleting, setDeleting] = useState<Alert | null>(null);
  useSocketTopic('ALERT', () => void queryClient.invalidateQueries({ queryKey: alertsQueryKey() }));

  if (list.isPending) return <SkeletonRows rows={3} />;
  if (list.isError) return <ErrorState onRetry={() => void list.refetch()} />;
  const waiting = list.data.data.filter((alert) => alert.fired_at === 0).length;
  return (
    <>
      <p className="border-b border-border px-4 py-2 text-xs text-muted" data-testid="alerts-count">
        {t('orders.alerts_count', { count: waiting, limit: list.data.limit })}
      </p>
      {list.data.data.length === 0 ? (
        <EmptyState />
      ) : (
        <ul className="divide-y divide-border">
          {list.data.data.map((alert) => (
            <AlertRow key={alert.id} alert={alert} onDelete={() => setDeleting(alert)} />
          ))}
        </ul>
      )}
      {deleting && (
        <ConfirmDialog
          title={t('orders.alert_delete_title')}
          message={t('orders.alert_delete_message', { symbol: deleting.symbol, price: deleting.price })}
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => toast(t('orders.alert_deleted'), 'success'),
              onSettled: () => setDeleting(null),
            })
          }
        />
      )}
    </>
  );
}
