import type { Order } from '@tp/contract/schemas/trading';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { formatMoney, formatProfit } from '../../../lib/format';
import {
  chargeOrDash,
  neverCharged,
  orderTime,
  priceOrDash,
  SideBadge,
  useCloseReason,
  useExpiryLabel,
  usePendingTypeLabel,
} from './order-card';
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
  const closeReason = useCloseReason();
  const p = order.ForexTradeLists.PricePrecision;
  // Pending, or cancelled before it ever opened: the price it waited for.
  const unopened = order.Status === 0 || neverCharged(order);
  const rows: [string, string][] = [
    [t('orders.order_id'), String(order.Id)],
    [t('orders.lots'), order.Quantity],
    [t('orders.unit_per_lot'), order.ForexContNum],
    [t('orders.multiple'), `x${order.Multiple}`],
    [unopened ? t('orders.target_price') : t('orders.open_price'), priceOrDash(unopened ? order.OriginPrice : order.Price, p)],
    [t('orders.market_price'), priceOrDash(order.UpdatePrice, p)],
    [t('orders.take_profit'), priceOrDash(order.TargetProfitPrice, p)],
    [t('orders.stop_loss'), priceOrDash(order.TargetLossPrice, p)],
    [t('orders.margin'), chargeOrDash(order, order.CautionMoney, formatMoney)],
    [t('orders.handling_fee'), chargeOrDash(order, order.TradeFee, formatMoney)],
    [t('orders.swap'), chargeOrDash(order, order.Swap, formatMoney)],
    [t('orders.profit'), chargeOrDash(order, order.FactProfits, formatProfit)],
    [t('orders.open_time'), orderTime(order.CreateTime)],
  ];
  if (order.Status === 3 || neverCharged(order))
    rows.push([t('orders.close_reason'), closeReason(order)], [t('orders.close_time'), orderTime(order.CompleteTime)]);
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
