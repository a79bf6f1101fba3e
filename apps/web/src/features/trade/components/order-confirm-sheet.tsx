import { OrderStatus, OrderType } from '@tp/contract/constants';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { formatDateTime, formatMoney, formatNumber } from '../../../lib/format';
import type { TradeSymbol } from '../../../api/get-trade-list';
import { requotePrice, useSubmitOrder, type SubmitOrderInput } from '../api/submit-order';
import type { Estimate } from './order-math';
import type { PendingType } from '@tp/contract/schemas/trading';
import { RequoteDialog, type Requote } from './requote-dialog';

export interface OrderDraft {
  symbol: TradeSymbol;
  orderType: number;
  pending: boolean;
  /** The target price of a pending order, or the current ask (buy) or bid (sell). */
  price: string;
  lots: string;
  leverage: number;
  takeProfit: string | null;
  stopLoss: string | null;
  estimate: Estimate | null;
  /** Pending orders: the chosen type (derived by the server when left out) and expiry. */
  pendingType?: PendingType;
  expireType?: 0 | 1 | 2;
  expireTime?: number;
  /** The type the server will derive from the price when none was chosen (shown, not sent). */
  derivedType?: PendingType | null;
  /** Market orders: the slippage tolerance in points. */
  deviation: number | null;
}

/** What makes two confirmations the same order (the market price aside): a retry of it reuses the client order id. */
const orderKey = (d: OrderDraft) =>
  JSON.stringify([
    d.symbol.Id,
    d.orderType,
    d.pending,
    d.pending ? d.price : '',
    d.lots,
    d.leverage,
    d.takeProfit,
    d.stopLoss,
    d.deviation,
    d.pendingType,
    d.expireType,
    d.expireTime,
  ]);

function newClientOrderId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** Confirmation before an order is sent; Enter confirms, Escape cancels. */
export function OrderConfirmSheet({ draft, onClose, centred }: { draft: OrderDraft | null; onClose: () => void; centred: boolean }) {
  const { t } = useTranslation();
  const submit = useSubmitOrder();
  const [requote, setRequote] = useState<Requote | null>(null);
  // One id per order: a retry of the same order (after a timeout, offline, a requote) never makes a second
  // one; a new id after a success or once the order changed.
  const clientOrder = useRef<{ key: string; id: string } | null>(null);
  const clientOrderId = (d: OrderDraft): string => {
    const key = orderKey(d);
    if (clientOrder.current?.key !== key) clientOrder.current = { key, id: newClientOrderId() };
    return clientOrder.current.id;
  };

  const send = (d: OrderDraft, marketPrice: string) => {
    if (submit.isPending) return;
    const input: SubmitOrderInput = {
      type: d.orderType,
      cont: d.lots,
      forex_id: d.symbol.Id,
      status: d.pending ? OrderStatus.PENDING : OrderStatus.OPEN,
      target_price: d.pending ? d.price : undefined,
      target_profit_price: d.takeProfit ?? undefined,
      stop_loss_price: d.stopLoss ?? undefined,
      multiple: d.leverage,
      client_order_id: clientOrderId(d),
      price: d.pending ? undefined : marketPrice,
      deviation: d.pending ? undefined : (d.deviation ?? undefined),
      pending_type: d.pending ? d.pendingType : undefined,
      expire_type: d.pending ? d.expireType : undefined,
      expire_time: d.pending && d.expireType === 2 ? d.expireTime : undefined,
    };
    submit.mutate(input, {
      onSuccess: () => {
        toast(t('messages.order_confirmed'), 'success');
        clientOrder.current = null;
        setRequote(null);
        onClose();
      },
      onError: (error) => {
        const price = requotePrice(error);
        setRequote(price === null ? null : { price, seen: marketPrice, deviation: d.deviation ?? 0 });
      },
    });
  };
  const confirm = () => {
    if (draft) send(draft, draft.price);
  };
  const onEnter = useEffectEvent(() => confirm());
  // The sheet opens with the focus on its confirm button: Enter or Space sends, Tab stays inside, Escape cancels.
  const confirmButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!draft || requote) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Enter' && !(event.target as HTMLElement | null)?.closest('button')) {
        event.preventDefault();
        onEnter();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [draft, requote]);

  if (!draft) return null;
  if (requote) {
    return (
      <RequoteDialog
        requote={requote}
        precision={draft.symbol.PricePrecision}
        busy={submit.isPending}
        onAccept={() => send(draft, requote.price)}
        onCancel={() => {
          setRequote(null);
          onClose();
        }}
      />
    );
  }
  const buy = draft.orderType === OrderType.BUY;
  const precision = draft.symbol.PricePrecision;
  const pendingType = draft.pendingType ?? draft.derivedType;
  const expiry =
    draft.expireType === 1
      ? t('trade.expiry_day')
      : draft.expireType === 2 && draft.expireTime
        ? formatDateTime(draft.expireTime * 1000)
        : t('trade.expiry_gtc');
  const rows: [string, string][] = [
    [t('trade.symbol'), draft.symbol.ShowCode],
    [t('trade.direction'), buy ? t('trade.buy_long') : t('trade.sell_short')],
    [t('trade.order_kind'), draft.pending ? t('trade.pending') : t('trade.market')],
    [draft.pending ? t('trade.price') : t('trade.market_price'), formatNumber(draft.price, precision)],
    ...(draft.pending
      ? ([
          [t('trade.pending_type'), pendingType ? t(`trade.pending_types.${pendingType}`) : '--'],
          [t('trade.expiry'), expiry],
        ] as [string, string][])
      : []),
    [t('trade.lots'), draft.lots],
    [t('trade.leverage'), `x${draft.leverage}`],
    [t('trade.take_profit'), draft.takeProfit ? formatNumber(draft.takeProfit, precision) : t('trade.not_set')],
    [t('trade.stop_loss'), draft.stopLoss ? formatNumber(draft.stopLoss, precision) : t('trade.not_set')],
    [t('trade.estimated_margin'), draft.estimate ? formatMoney(draft.estimate.margin.toString()) : '--'],
    [t('trade.estimated_fee'), draft.estimate ? formatMoney(draft.estimate.fee.toString()) : '--'],
  ];

  return (
    <Dialog
      open
      onClose={onClose}
      variant={centred ? 'center' : 'sheet'}
      title={t('trade.confirm_title')}
      initialFocus={confirmButton}
      footer={
        <>
          <Button variant="secondary" block onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            ref={confirmButton}
            block
            disabled={submit.isPending}
            onClick={() => confirm()}
            className={buy ? '!bg-up !text-bg' : '!bg-down !text-bg'}
          >
            {submit.isPending && <Spinner className="size-4" />}
            {t('trade.confirm_order')}
          </Button>
        </>
      }
    >
      <dl className="flex flex-col gap-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4">
            <dt className="text-muted">{label}</dt>
            <dd className={`text-end tabular-nums ${label === t('trade.direction') ? (buy ? 'text-up' : 'text-down') : ''}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {centred && <p className="mt-3 text-[11px] text-muted">{t('trade.confirm_shortcut')}</p>}
    </Dialog>
  );
}
