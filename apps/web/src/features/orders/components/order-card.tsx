import { CANCEL_REASONS, type CancelReason, OrderStatus, OrderType } from '@tp/contract/constants';
import type { Order } from '@tp/contract/schemas/trading';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney, formatNumber, formatProfit } from '../../../lib/format';

export const priceOrDash = (value: string, precision: number) => (!value || Number(value) === 0 ? '--' : formatNumber(value, precision));
export const orderTime = (seconds: number) => (seconds ? formatDateTime(seconds * 1000) : '--');

const isCancelReason = (code: string): code is CancelReason => (CANCEL_REASONS as readonly string[]).includes(code);

/** Why an order left the lists: its close type, or cancelled and why (each reason code translated; an unknown one is left out). */
export function useCloseReason() {
  const { t } = useTranslation();
  return (order: Order): string => {
    if (order.Status === OrderStatus.CANCELLED)
      return isCancelReason(order.CancelReason)
        ? `${t('orders.cancelled')} · ${t(`orders.cancel_reasons.${order.CancelReason}`)}`
        : t('orders.cancelled');
    // 7-9: the copier closed it (the trader copied closed, the copy stop-loss, an unfollow), not the user.
    const key = order.ClosedType >= 1 && order.ClosedType <= 9 ? order.ClosedType : 1;
    const reason = t(`orders.closed_type_${key as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9}`);
    // A trade staff reversed (its profit or loss and fee taken back) says so.
    return order.Reversed ? `${reason} · ${t('orders.reversed')}` : reason;
  };
}

/** "Buy limit", "Sell stop"…: what a pending order (or the position it became) is; null for market orders. */
export function usePendingTypeLabel() {
  const { t } = useTranslation();
  return (order: Order): string | null => (order.PendingType ? t(`orders.pending_types.${order.PendingType}`) : null);
}

/** When a pending order expires: good till cancelled, or its date and time. */
export function useExpiryLabel() {
  const { t } = useTranslation();
  return (order: Order): string => (order.ExpireTime ? formatDateTime(order.ExpireTime * 1000) : t('orders.good_till_cancelled'));
}

/**
 * A cancelled pending order never opened: its reserved margin and fee went back to the balance, so
 * nothing is shown as charged (a dash, not the reservation).
 */
export const neverCharged = (order: Order) => order.Status === OrderStatus.CANCELLED;
export const chargeOrDash = (order: Order, value: string, format: (v: string) => string) => (neverCharged(order) ? '--' : format(value));

export function SideBadge({ orderType }: { orderType: number }) {
  const { t } = useTranslation();
  const buy = orderType === OrderType.BUY;
  return (
    <span className={`rounded px-1.5 py-0.5 text-[11px] font-medium ${buy ? 'bg-up/15 text-up' : 'bg-down/15 text-down'}`}>
      {buy ? t('orders.buy') : t('orders.sell')}
    </span>
  );
}

/** One figure of a card; `wide` ones (dates, reasons) take two of the phone's three columns so they are not cut off. */
export function Field({ label, children, testId, wide = false }: { label: string; children: ReactNode; testId?: string; wide?: boolean }) {
  return (
    <div className={`flex min-w-0 flex-col ${wide ? 'col-span-2 lg:col-span-1' : ''}`}>
      {/* Wrapped, never cut: a close time or a translated reason may be wider than a third of a phone. */}
      <dt className="text-[11px] leading-tight text-muted [overflow-wrap:anywhere]">{label}</dt>
      <dd className="text-xs tabular-nums [overflow-wrap:anywhere]" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** One order in a list: its figures for the tab it is in, and that tab's actions. */
export function OrderCard({ order, tab, actions, onOpen }: { order: Order; tab: 1 | 0 | 3; actions?: ReactNode; onOpen?: () => void }) {
  const { t } = useTranslation();
  const closeReason = useCloseReason();
  const pendingType = usePendingTypeLabel()(order);
  const expiry = useExpiryLabel()(order);
  const p = order.ForexTradeLists.PricePrecision;
  const profit = Number(order.FactProfits);
  const profitTone = profit > 0 ? 'text-up' : profit < 0 ? 'text-down' : 'text-text';
  return (
    <li className="px-4 py-3" data-order-id={order.Id}>
      <article
        aria-label={t('orders.order_label', { symbol: order.ForexTradeLists.ShowCode, id: order.Id })}
        className="flex flex-col gap-2"
      >
        <header className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <SideBadge orderType={order.OrderType} />
          {tab === 0 && pendingType && (
            <span className="rounded bg-surface-2 px-1.5 py-0.5 text-[11px] font-medium" data-testid="order-pending-type">
              {pendingType}
            </span>
          )}
          {/* One level below the page's heading wherever the list is shown (WCAG heading order). */}
          <h2 className="font-medium" dir="ltr">
            {order.ForexTradeLists.ShowCode}
          </h2>
          <span className="text-xs text-muted">
            {t('orders.lots_value', { lots: order.Quantity })} · {`x${order.Multiple}`}
          </span>
          {tab !== 0 && (
            <span
              className={`ms-auto text-sm font-semibold tabular-nums ${neverCharged(order) ? 'text-muted' : profitTone}`}
              data-testid="order-profit"
            >
              {chargeOrDash(order, order.FactProfits, formatProfit)}
            </span>
          )}
        </header>
        <dl className="grid grid-cols-3 gap-x-3 gap-y-1.5 lg:grid-cols-6">
          {tab === 0 || neverCharged(order) ? (
            <Field label={t('orders.target_price')}>{priceOrDash(order.OriginPrice, p)}</Field>
          ) : (
            <Field label={t('orders.open_price')}>{priceOrDash(order.Price, p)}</Field>
          )}
          <Field label={tab === 3 ? t('orders.close_price') : t('orders.market_price')} testId="order-update-price">
            {priceOrDash(order.UpdatePrice, p)}
          </Field>
          <Field label={t('orders.margin')} testId="order-margin">
            {chargeOrDash(order, order.CautionMoney, formatMoney)}
          </Field>
          <Field label={t('orders.take_profit')} testId="order-tp">
            {priceOrDash(order.TargetProfitPrice, p)}
          </Field>
          <Field label={t('orders.stop_loss')} testId="order-sl">
            {priceOrDash(order.TargetLossPrice, p)}
          </Field>
          <Field label={t('orders.handling_fee')} testId="order-fee">
            {chargeOrDash(order, order.TradeFee, formatMoney)}
          </Field>
          <Field label={t('orders.swap')} testId="order-swap">
            {chargeOrDash(order, order.Swap, formatMoney)}
          </Field>
          {tab === 3 && (
            <>
              <Field label={t('orders.close_reason')} testId="order-close-reason" wide>
                {closeReason(order)}
              </Field>
              <Field label={t('orders.close_time')} wide>
                {orderTime(order.CompleteTime)}
              </Field>
            </>
          )}
          {tab !== 3 && (
            <Field label={t('orders.open_time')} wide>
              {orderTime(order.CreateTime)}
            </Field>
          )}
          {tab === 0 && (
            <Field label={t('orders.expiry')} testId="order-expiry" wide>
              {expiry}
            </Field>
          )}
          {tab === 1 && order.TrailingPoints > 0 && (
            <Field label={t('orders.trailing_stop')} testId="order-trailing">
              {t('orders.points_value', { points: order.TrailingPoints })}
            </Field>
          )}
        </dl>
        {(actions || onOpen) && (
          <div className="flex flex-wrap justify-end gap-2">
            {onOpen && (
              <button type="button" onClick={onOpen} className="rounded-md bg-surface-2 px-3 py-1.5 text-xs">
                {t('orders.details')}
              </button>
            )}
            {actions}
          </div>
        )}
      </article>
    </li>
  );
}
