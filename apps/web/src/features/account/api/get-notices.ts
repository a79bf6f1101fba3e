import { queryOptions, useQuery } from '@tanstack/react-query';
import { alerts, notices } from '@tp/contract/endpoints/trading';
import type { Alert, Notice } from '@tp/contract/schemas/trading';
import { call, queryKey } from '../../../lib/api-client';

/** The newest closes, fills and fired alerts the list shows; older ones are in History. */
const LIST_SIZE = 50;

export type NotificationItem = { kind: 'notice'; time: number; notice: Notice } | { kind: 'alert'; time: number; alert: Alert };

export const notificationsQueryKey = queryKey(notices);

async function getNotifications(signal: AbortSignal): Promise<NotificationItem[]> {
  const [closes, priceAlerts] = await Promise.all([
    call(notices, { page: 1, limit: LIST_SIZE }, { signal, showErrorMessage: false }),
    call(alerts, { page: 1, limit: LIST_SIZE }, { signal, showErrorMessage: false }),
  ]);
  const items: NotificationItem[] = [
    ...closes.data.map((notice) => ({ kind: 'notice' as const, time: notice.time, notice })),
    ...priceAlerts.data.filter((a) => a.fired_at > 0).map((alert) => ({ kind: 'alert' as const, time: alert.fired_at, alert })),
  ];
  return items.sort((a, b) => b.time - a.time).slice(0, LIST_SIZE);
}

/** Closes and fills the trader was told about, and fired price alerts, newest first (from the server: survives reloads). */
export const getNotificationsQueryOptions = () =>
  queryOptions({ queryKey: notificationsQueryKey, queryFn: ({ signal }) => getNotifications(signal), staleTime: 30_000 });

export const useNotifications = (enabled = true) => useQuery({ ...getNotificationsQueryOptions(), enabled });
