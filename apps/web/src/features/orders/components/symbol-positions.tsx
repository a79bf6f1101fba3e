import type { Order } from '@tp/contract/schemas/trading';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast-store';
import { formatMoney, formatPrice } from '../../../lib/format';
import { useCloseOrder } from '../api/close-order';
import { useOpenOrders } from '../api/get-my-deal';
import { ConfirmDialog } from './confirm-dialog';
import { SideBadge } from './order-card';
import { useLiveOrders } from './use-live-orders';

/** The phone trade screen's open positions in one symbol: side, lots, open price, live profit, close. */
export function SymbolPositions({ symbolId, symbolName }: { symbolId: number; symbolName: string }) {
  const { t } = useTranslation();
  useLiveOrders();
  const list = useOpenOrders(1);
  const close = useCloseOrder();
  const [closing, setClosing] = useState<Order | null>(null);
  const positions = (list.data?.data ?? []).filter((order) => order.ForexId === symbolId);
  if (positions.length === 0) return null;
  return (
    <section aria-label={t('orders.symbol_positions', { symbol: symbolName })} className="border-y border-border">
      <h2 className="px-4 pt-2 text-xs text-muted">{t('orders.symbol_positions', { symbol: symbolName })}</h2>
      <ul className="divide-y divide-border">
        {positions.map((order) => {
          const profit = Number(order.FactProfits);
          return (
            <li key={order.Id} data-order-id={order.Id} className="flex items-center gap-2 px-4 py-2 text-sm">
              <SideBadge orderType={order.OrderType} />
              <span className="tabular-nums">{t('orders.lots_value', { lots: order.Quantity })}</span>
              <span className="text-xs text-muted tabular-nums">@ {formatPrice(order.Price, order.ForexTradeLists.PricePrecision)}</span>
              <span
                className={`ms-auto tabular-nums ${profit > 0 ? 'text-up' : profit < 0 ? 'text-down' : ''}`}
                data-testid="position-profit"
              >
                {formatMoney(order.FactProfits, { signed: true })}
              </span>
              <button type="button" onClick={() => setClosing(order)} className="rounded-md bg-surface-2 px-2.5 py-1 text-xs font-medium">
                {t('orders.close_position')}
              </button>
            </li>
          );
        })}
      </ul>
      {closing && (
        <ConfirmDialog
          title={t('orders.close_title')}
          message={t('orders.close_message', { symbol: closing.ForexTradeLists.ShowCode, lots: closing.Quantity })}
          busy={close.isPending}
          onClose={() => setClosing(null)}
          onConfirm={() =>
            close.mutate(
              { id: closing.Id },
              {
                onSuccess: () => toast(t('orders.closed_toast'), 'success'),
                onSettled: () => setClosing(null),
              },
            )
          }
        />
      )}
    </section>
  );
}
