import { OrderStatus, OrderType } from '@tp/contract/constants';
import type { Order } from '@tp/contract/schemas/trading';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { Spinner } from '../../../components/ui/spinner';
import { formatMoney, formatNumber } from '../../../lib/format';
import { useLiveQuote } from '../../../lib/live-quotes';
import { useOpenOrders } from '../api/get-my-deal';
import { orderTime, priceOrDash, SideBadge, useCloseReason, useExpiryLabel, usePendingTypeLabel } from './order-card';
import { isolateLtr } from './close-lots';
import { profitPoints } from './order-points';
import { useHistoryPages } from './use-history-pages';
import type { PositionTool } from './position-actions';

/**
 * The desktop's order lists as tables (MT5's Trade and History tabs): one row per order, a header
 * that stays while the rows scroll inside the panel, and the row's actions at its end.
 */

const cell = 'whitespace-nowrap px-2 py-1.5 text-end tabular-nums';
const startCell = 'whitespace-nowrap px-2 py-1.5 text-start';
const actionClass = 'rounded px-2 py-1 text-xs font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-accent';

/** The scrolling frame: fills the terminal's panel (embedded) or holds a screenful on /order. */
function TableFrame({
  label,
  columns,
  embedded,
  children,
  after,
}: {
  label: string;
  columns: { key: string; label: string; end?: boolean }[];
  embedded: boolean;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <div className={`overflow-auto ${embedded ? 'min-h-0 flex-1' : 'max-h-[70dvh]'}`} data-testid="orders-table-frame">
      <table aria-label={label} className="w-full border-collapse text-xs">
        <thead className="sticky top-0 z-[1] bg-surface text-[11px] text-muted shadow-[0_1px_0_var(--color-border)]">
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={`whitespace-nowrap px-2 py-1.5 font-medium ${column.end ? 'text-end' : 'text-start'}`}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">{children}</tbody>
      </table>
      {after}
    </div>
  );
}

/** The symbol's name, which opens the order's detail sheet. */
function SymbolCell({ order, onOpen }: { order: Order; onOpen?: (order: Order) => void }) {
  const { t } = useTranslation();
  const name = (
    <span dir="ltr" className="font-medium">
      {order.ForexTradeLists.ShowCode}
    </span>
  );
  return (
    <th scope="row" className={`${startCell} font-normal`}>
      {onOpen ? (
        <button
          type="button"
          onClick={() => onOpen(order)}
          title={t('orders.details')}
          className="rounded underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent"
        >
          {name}
        </button>
      ) : (
        name
      )}
    </th>
  );
}

const tone = (value: string) => (Number(value) > 0 ? 'text-up' : Number(value) < 0 ? 'text-down' : '');

/** Profit in money (2 decimals, locale formatted) and, under it, the move in points. */
function ProfitCell({ order, current }: { order: Order; current: string }) {
  const { t } = useTranslation();
  const points = profitPoints(order.OrderType, order.Price, current, order.ForexTradeLists.PricePrecision);
  return (
    <td className={`${cell} ${tone(order.FactProfits)}`}>
      <span className="block font-semibold" data-testid="order-profit-money">
        {formatMoney(order.FactProfits)}
      </span>
      <span className="block text-[11px] text-muted" data-testid="order-points">
        {points === null ? '--' : t('orders.points_value', { points: isolateLtr(formatNumber(points, 0)) })}
      </span>
    </td>
  );
}

function useOpenColumns(kind: 'holding' | 'pending' | 'history') {
  const { t } = useTranslation();
  const columns: { key: string; label: string; end?: boolean }[] = [
    { key: 'symbol', label: t('orders.symbol') },
    { key: 'side', label: t('orders.side') },
    { key: 'lots', label: t('orders.lots'), end: true },
    { key: 'open', label: kind === 'pending' ? t('orders.target_price') : t('orders.open_price'), end: true },
    { key: 'current', label: kind === 'history' ? t('orders.close_price') : t('orders.current_price'), end: true },
    { key: 'tp', label: t('orders.take_profit'), end: true },
    { key: 'sl', label: t('orders.stop_loss'), end: true },
  ];
  if (kind !== 'pending') {
    columns.push(
      { key: 'swap', label: t('orders.swap'), end: true },
      { key: 'fee', label: t('orders.handling_fee'), end: true },
      { key: 'profit', label: t('orders.profit'), end: true },
    );
  }
  columns.push({ key: 'open-time', label: t('orders.open_time') });
  if (kind === 'pending') columns.push({ key: 'expiry', label: t('orders.expiry') });
  if (kind === 'history')
    columns.push({ key: 'close-time', label: t('orders.close_time') }, { key: 'reason', label: t('orders.close_reason') });
  if (kind !== 'history') columns.push({ key: 'actions', label: t('orders.actions'), end: true });
  return columns;
}

/** Loading, failed and empty states of an open-orders tab, or its rows. */
function OpenOrdersTable({
  tab,
  label,
  embedded,
  row,
}: {
  tab: 0 | 1;
  label: string;
  embedded: boolean;
  row: (order: Order) => ReactNode;
}) {
  const list = useOpenOrders(tab);
  const columns = useOpenColumns(tab === 1 ? 'holding' : 'pending');
  if (list.isPending) return <SkeletonRows rows={3} />;
  if (list.isError) return <ErrorState onRetry={() => void list.refetch()} />;
  if (list.data.data.length === 0) return <EmptyState />;
  return (
    <TableFrame label={label} columns={columns} embedded={embedded}>
      {list.data.data.map(row)}
    </TableFrame>
  );
}

/** Open positions, with the current price and profit that FOREX_TRADE keeps live, and their actions. */
export function HoldingTable({
  onOpen,
  onTool,
  embedded,
}: {
  onOpen: (order: Order) => void;
  onTool: (tool: PositionTool, order: Order) => void;
  embedded: boolean;
}) {
  const { t } = useTranslation();
  return (
    <OpenOrdersTable
      tab={1}
      label={t('orders.holding')}
      embedded={embedded}
      row={(order) => {
        const p = order.ForexTradeLists.PricePrecision;
        return (
          <tr
            key={order.Id}
            data-order-id={order.Id}
            aria-label={t('orders.order_label', { symbol: order.ForexTradeLists.ShowCode, id: order.Id })}
            className="hover:bg-surface-2/60"
          >
            <SymbolCell order={order} onOpen={onOpen} />
            <td className={startCell}>
              <SideBadge orderType={order.OrderType} />
            </td>
            <td className={cell}>{order.Quantity}</td>
            <td className={cell}>{priceOrDash(order.Price, p)}</td>
            <td className={cell} data-testid="order-update-price">
              {priceOrDash(order.UpdatePrice, p)}
            </td>
            <td className={cell} data-testid="order-tp">
              {priceOrDash(order.TargetProfitPrice, p)}
            </td>
            <td className={cell} data-testid="order-sl">
              {priceOrDash(order.TargetLossPrice, p)}
            </td>
            <td className={cell} data-testid="order-swap">
              {formatMoney(order.Swap)}
            </td>
            <td className={cell} data-testid="order-fee">
              {formatMoney(order.TradeFee)}
            </td>
            <ProfitCell order={order} current={order.UpdatePrice} />
            <td className={`${startCell} tabular-nums`}>{orderTime(order.CreateTime)}</td>
            <td className={cell}>
              <div className="flex justify-end gap-1">
                <button type="button" className={`${actionClass} bg-surface-2`} onClick={() => onTool('stops', order)}>
                  {t('orders.edit_stops')}
                </button>
                <button type="button" className={`${actionClass} bg-surface-2`} onClick={() => onTool('partial', order)}>
                  {t('orders.partial_close')}
                </button>
                <button type="button" className={`${actionClass} bg-accent text-on-accent`} onClick={() => onTool('close', order)}>
                  {t('orders.close_position')}
                </button>
              </div>
            </td>
          </tr>
        );
      }}
    />
  );
}

/** A pending order's row: the current price is the live quote it waits on (ask for a buy, bid for a sell). */
function PendingRow({ order, onOpen, onCancel }: { order: Order; onOpen: (order: Order) => void; onCancel: (order: Order) => void }) {
  const { t } = useTranslation();
  const pendingType = usePendingTypeLabel()(order);
  const expiry = useExpiryLabel()(order);
  const quote = useLiveQuote(order.ForexTradeLists.Code);
  const p = order.ForexTradeLists.PricePrecision;
  const live = order.OrderType === OrderType.BUY ? quote?.ask : quote?.bid;
  return (
    <tr
      data-order-id={order.Id}
      aria-label={t('orders.order_label', { symbol: order.ForexTradeLists.ShowCode, id: order.Id })}
      className="hover:bg-surface-2/60"
    >
      <SymbolCell order={order} onOpen={onOpen} />
      <td className={startCell}>
        <span className="inline-flex items-center gap-1">
          <SideBadge orderType={order.OrderType} />
          {pendingType && (
            <span className="rounded bg-surface-2 px-1.5 py-0.5 text-[11px] font-medium" data-testid="order-pending-type">
              {pendingType}
            </span>
          )}
        </span>
      </td>
      <td className={cell}>{order.Quantity}</td>
      <td className={cell}>{priceOrDash(order.OriginPrice, p)}</td>
      <td className={cell} data-testid="order-update-price">
        {priceOrDash(live ?? order.UpdatePrice, p)}
      </td>
      <td className={cell} data-testid="order-tp">
        {priceOrDash(order.TargetProfitPrice, p)}
      </td>
      <td className={cell} data-testid="order-sl">
        {priceOrDash(order.TargetLossPrice, p)}
      </td>
      <td className={`${startCell} tabular-nums`}>{orderTime(order.CreateTime)}</td>
      <td className={startCell} data-testid="order-expiry">
        {expiry}
      </td>
      <td className={cell}>
        <button type="button" className={`${actionClass} bg-surface-2 text-down`} onClick={() => onCancel(order)}>
          {t('orders.cancel_order')}
        </button>
      </td>
    </tr>
  );
}

/** Pending orders; cancelling asks first (the caller's dialog). */
export function PendingTable({
  onOpen,
  onCancel,
  embedded,
}: {
  onOpen: (order: Order) => void;
  onCancel: (order: Order) => void;
  embedded: boolean;
}) {
  const { t } = useTranslation();
  return (
    <OpenOrdersTable
      tab={0}
      label={t('orders.pending')}
      embedded={embedded}
      row={(order) => <PendingRow key={order.Id} order={order} onOpen={onOpen} onCancel={onCancel} />}
    />
  );
}

/** Closed and cancelled orders, a page more each time the end of the table scrolls into view. */
export function HistoryTable({ embedded }: { embedded: boolean }) {
  const { t } = useTranslation();
  const { history, sentinel, hasNextPage } = useHistoryPages();
  const closeReason = useCloseReason();
  const columns = useOpenColumns('history');

  if (history.isPending) return <SkeletonRows rows={3} />;
  if (history.isError) return <ErrorState onRetry={() => void history.refetch()} />;
  const orders = history.data.pages.flatMap((page) => page.data);
  if (orders.length === 0) return <EmptyState />;
  return (
    <TableFrame
      label={t('orders.history')}
      columns={columns}
      embedded={embedded}
      after={
        <div ref={sentinel} className="flex justify-center py-3 text-xs text-muted">
          {hasNextPage ? <Spinner className="size-4" /> : <span>{t('messages.no_more')}</span>}
        </div>
      }
    >
      {orders.map((order) => {
        const p = order.ForexTradeLists.PricePrecision;
        // A cancelled order never opened: no close price, fee, swap or profit to show.
        const opened = order.Status !== OrderStatus.CANCELLED;
        return (
          <tr
            key={order.Id}
            data-order-id={order.Id}
            aria-label={t('orders.order_label', { symbol: order.ForexTradeLists.ShowCode, id: order.Id })}
          >
            <SymbolCell order={order} />
            <td className={startCell}>
              <SideBadge orderType={order.OrderType} />
            </td>
            <td className={cell}>{order.Quantity}</td>
            <td className={cell}>{priceOrDash(opened ? order.Price : order.OriginPrice, p)}</td>
            <td className={cell} data-testid="order-update-price">
              {opened ? priceOrDash(order.UpdatePrice, p) : '--'}
            </td>
            <td className={cell} data-testid="order-tp">
              {priceOrDash(order.TargetProfitPrice, p)}
            </td>
            <td className={cell} data-testid="order-sl">
              {priceOrDash(order.TargetLossPrice, p)}
            </td>
            <td className={cell} data-testid="order-swap">
              {opened ? formatMoney(order.Swap) : '--'}
            </td>
            <td className={cell} data-testid="order-fee">
              {opened ? formatMoney(order.TradeFee) : '--'}
            </td>
            {opened ? (
              <ProfitCell order={order} current={order.UpdatePrice} />
            ) : (
              <td className={cell} data-testid="order-profit">
                --
              </td>
            )}
            <td className={`${startCell} tabular-nums`}>{orderTime(order.CreateTime)}</td>
            <td className={`${startCell} tabular-nums`}>{orderTime(order.CompleteTime)}</td>
            <td className={startCell} data-testid="order-close-reason">
              {closeReason(order)}
            </td>
          </tr>
        );
      })}
    </TableFrame>
  );
}
