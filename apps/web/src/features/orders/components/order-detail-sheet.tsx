import type { Order } from '@tp/contract/schemas/trading';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { formatMoney, formatProfit } from '../../../lib/format';
import { orderTime, priceOrDash, SideBadge, useExpiryLabel, usePendingTypeLabel } from './order-card';
import type { PositionTool } from './position-actions';

/** Every figure of one order and, for a position, its tools; closes by itself when FOREX_CLOSED removes the order. */
export function OrderDetailSheet({
  order,
  onClose,
  centred,
  onTool,
}: {
  order: Order;
  onClose: () => void;
  centred: boolean;
  onTool?: (tool: PositionTool, order: Order) => void;
}) {
  const { t } = useTranslation();
  const pendingType = usePendingTypeLabel()(order);
  const expiry = useExpiryLabel()(order);
  const p = order.ForexTradeLists.PricePrecision;
  const rows: [string, string][] = [
    [t('orders.order_id'), String(order.Id)],
    [t('orders.lots'), order.Quantity],
    [t('orders.unit_per_lot'), order.ForexContNum],
    [t('orders.multiple'), `x${order.Multiple}`],
    [
      order.Status === 0 ? t('orders.target_price') : t('orders.open_price'),
      priceOrDash(order.Status === 0 ? order.OriginPrice : order.Price, p),
    ],
    [t('orders.market_price'), priceOrDash(order.UpdatePrice, p)],
    [t('orders.take_profit'), priceOrDash(order.TargetProfitPrice, p)],
    [t('orders.stop_loss'), priceOrDash(order.TargetLossPrice, p)],
    [t('orders.margin'), formatMoney(order.CautionMoney)],
    [t('orders.handling_fee'), formatProfit(order.TradeFee)],
    [t('orders.swap'), formatProfit(order.Swap)],
    [t('orders.profit'), formatProfit(order.FactProfits)],
    [t('orders.open_time'), orderTime(order.CreateTime)],
  ];
  if (pendingType) rows.splice(1, 0, [t('orders.pending_type'), pendingType]);
  if (order.Status === 0) rows.push([t('orders.expiry'), expiry]);
  if (order.Status === 1)
    rows.push([t('orders.trailing_stop'), order.TrailingPoints ? t('orders.points_value', { points: order.TrailingPoints }) : '--']);
  const tools: { tool: PositionTool; key: 'edit_stops' | 'reverse' | 'close_position' }[] = [
    { tool: 'stops', key: 'edit_stops' },
    { tool: 'reverse', key: 'reverse' },
    { tool: 'close', key: 'close_position' },
  ];
  return (
    <Dialog
      open
      onClose={onClose}
      variant={centred ? 'center' : 'sheet'}
      title={t('orders.detail_title', { symbol: order.ForexTradeLists.ShowCode })}
      footer={
        order.Status === 1 && onTool
          ? tools.map(({ tool, key }) => (
              <Button key={tool} block variant={tool === 'close' ? 'primary' : 'secondary'} onClick={() => onTool(tool, order)}>
                {t(`orders.${key}`)}
              </Button>
            ))
          : undefined
      }
    >
      <div className="mb-3">
        <SideBadge orderType={order.OrderType} />
      </div>
      <dl className="flex flex-col gap-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4">
            <dt className="text-muted">{label}</dt>
            <dd className="text-end tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
