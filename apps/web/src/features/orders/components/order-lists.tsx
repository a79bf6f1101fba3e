import type { Order } from '@tp/contract/schemas/trading';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { useCancelOrder } from '../api/cancel-order';
import { useOpenOrders } from '../api/get-my-deal';
import { ConfirmDialog } from './confirm-dialog';
import { OrderCard } from './order-card';
import { CloseAllBar } from './close-all-bar';
import { HistoryTable, HoldingTable, PendingTable } from './order-tables';
import type { PositionTool } from './position-actions';
import { useHistoryPages } from './use-history-pages';

const actionClass = 'rounded-md px-3 py-1.5 text-xs font-medium';

/** Open positions (tab 1) or pending orders (tab 0) as cards with their actions; loading, failed and empty states. */
function OpenOrderList({ tab, onOpen, actions }: { tab: 0 | 1; onOpen: (order: Order) => void; actions: (order: Order) => ReactNode }) {
  const list = useOpenOrders(tab);
  if (list.isPending) return <SkeletonRows rows={3} />;
  if (list.isError) return <ErrorState onRetry={() => void list.refetch()} />;
  if (list.data.data.length === 0) return <EmptyState />;
  return (
    <ul className="divide-y divide-border">
      {list.data.data.map((order) => (
        <OrderCard key={order.Id} order={order} tab={tab} onOpen={() => onOpen(order)} actions={actions(order)} />
      ))}
    </ul>
  );
}

/** How a list is drawn: cards (phone) or a table (desktop), and whether it fills the terminal's panel. */
export interface ListLook {
  table?: boolean;
  embedded?: boolean;
}

/** Open positions: live price and profit, close-all buttons above them; each with TP/SL, reverse and (partial) close. */
export function HoldingList({
  onOpen,
  onTool,
  centred,
  currentCode,
  table = false,
  embedded = false,
}: {
  onOpen: (order: Order) => void;
  onTool: (tool: PositionTool, order: Order) => void;
  centred: boolean;
  currentCode?: string | null;
} & ListLook) {
  const { t } = useTranslation();
  const positions = useOpenOrders(1).data?.data ?? [];
  return (
    <>
      <CloseAllBar positions={positions} currentCode={currentCode} centred={centred} />
      {table ? (
        <HoldingTable onOpen={onOpen} onTool={onTool} embedded={embedded} />
      ) : (
        <OpenOrderList
          tab={1}
          onOpen={onOpen}
          actions={(order) => (
            <>
              <button type="button" className={`${actionClass} bg-surface-2`} onClick={() => onTool('stops', order)}>
                {t('orders.edit_stops')}
              </button>
              <button type="button" className={`${actionClass} bg-surface-2`} onClick={() => onTool('reverse', order)}>
                {t('orders.reverse')}
              </button>
              <button type="button" className={`${actionClass} bg-accent text-on-accent`} onClick={() => onTool('close', order)}>
                {t('orders.close_position')}
              </button>
            </>
          )}
        />
      )}
    </>
  );
}

/** Pending orders, each cancellable with a confirmation. */
export function PendingList({ onOpen, table = false, embedded = false }: { onOpen: (order: Order) => void } & ListLook) {
  const { t } = useTranslation();
  const cancel = useCancelOrder();
  const [cancelling, setCancelling] = useState<Order | null>(null);
  return (
    <>
      {table ? (
        <PendingTable onOpen={onOpen} onCancel={setCancelling} embedded={embedded} />
      ) : (
        <OpenOrderList
          tab={0}
          onOpen={onOpen}
          actions={(order) => (
            <button type="button" className={`${actionClass} bg-surface-2 text-down`} onClick={() => setCancelling(order)}>
              {t('orders.cancel_order')}
            </button>
          )}
        />
      )}
      {cancelling && (
        <ConfirmDialog
          title={t('orders.cancel_title')}
          message={t('orders.cancel_message', { symbol: cancelling.ForexTradeLists.ShowCode, lots: cancelling.Quantity })}
          busy={cancel.isPending}
          onClose={() => setCancelling(null)}
          onConfirm={() =>
            cancel.mutate(cancelling.Id, {
              onSuccess: () => toast(t('orders.cancelled_toast'), 'success'),
              onSettled: () => setCancelling(null),
            })
          }
        />
      )}
    </>
  );
}

/** Closed and cancelled orders with their reason, a page more each time the end scrolls into view. */
export function HistoryList({ table = false, embedded = false }: ListLook) {
  if (table) return <HistoryTable embedded={embedded} />;
  return <HistoryCards />;
}

function HistoryCards() {
  const { t } = useTranslation();
  const { history, sentinel, hasNextPage } = useHistoryPages();

  if (history.isPending) return <SkeletonRows rows={3} />;
  if (history.isError) return <ErrorState onRetry={() => void history.refetch()} />;
  const orders = history.data.pages.flatMap((page) => page.data);
  if (orders.length === 0) return <EmptyState />;
  return (
    <>
      <ul className="divide-y divide-border">
        {orders.map((order) => (
          <OrderCard key={order.Id} order={order} tab={3} />
        ))}
      </ul>
      <div ref={sentinel} className="flex justify-center py-4 text-xs text-muted">
        {hasNextPage ? <Spinner className="size-4" /> : <span>{t('messages.no_more')}</span>}
      </div>
    </>
  );
}
