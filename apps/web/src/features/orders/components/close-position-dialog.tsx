import { dec } from '@tp/contract/decimal';
import type { Order } from '@tp/contract/schemas/trading';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { formatMoney } from '../../../lib/format';
import { isDecimal } from '../../../lib/stop-levels';
import { closeLotsProblem, decimalsOf, isolateLtr } from './close-lots';
import { useCloseOrder } from '../api/close-order';
import { useDeal } from '../api/get-deal';

/**
 * Closes a position, all of it (the default) or a number of lots on the symbol's lot step, after
 * confirmation. `partial`: opened for a partial close, with the lots field focused and selected.
 */
export function ClosePositionDialog({
  order,
  onClose,
  centred,
  partial = false,
}: {
  order: Order;
  onClose: () => void;
  centred: boolean;
  partial?: boolean;
}) {
  const { t } = useTranslation();
  const close = useCloseOrder();
  const deal = useDeal(order.ForexId);
  const [lots, setLots] = useState(order.Quantity);
  const [error, setError] = useState<string | null>(null);
  const min = deal.data?.min_lots ?? '0';
  const step = deal.data?.lot_step ?? '0';
  const symbol = order.ForexTradeLists.ShowCode;
  const lotsInput = useRef<HTMLInputElement>(null);

  function confirm() {
    const problem = closeLotsProblem(lots, order.Quantity, min, step);
    if (problem) {
      setError(t(`orders.close_lots_${problem}`, { max: order.Quantity, min, step }));
      return;
    }
    setError(null);
    const all = dec(lots).eq(order.Quantity);
    // A promise, not mutate callbacks: the FOREX_CLOSED push may unmount this dialog before the answer arrives.
    close.mutateAsync({ id: order.Id, lots: all ? undefined : lots }).then(
      (closed) => {
        toast(
          all
            ? t('orders.closed_toast_profit', { symbol, lots: closed.Quantity, profit: isolateLtr(formatMoney(closed.FactProfits)) })
            : t('orders.partial_closed_toast', {
                symbol,
                lots: closed.Quantity,
                rest: dec(order.Quantity).minus(closed.Quantity).toString(),
                profit: isolateLtr(formatMoney(closed.FactProfits)),
              }),
          'success',
        );
        onClose();
      },
      // Refusals are toasted by the API client; the dialog stays for another try.
      () => undefined,
    );
  }

  const stepBy = (direction: 1 | -1) => {
    const unit = Number(step) > 0 ? dec(step) : dec(1);
    const current = isDecimal(lots) ? dec(lots) : dec(order.Quantity);
    const next = current.plus(unit.mul(direction));
    const bounded = next.gt(order.Quantity) ? dec(order.Quantity) : next.lt(unit) ? unit : next;
    setLots(bounded.toFixed(Math.max(decimalsOf(step), decimalsOf(order.Quantity))));
  };

  return (
    <Dialog
      open
      onClose={onClose}
      variant={centred ? 'center' : 'sheet'}
      title={partial ? t('orders.partial_close_title', { symbol }) : t('orders.close_title')}
      // The lots field, its text selected, for a partial close: given by the dialog when it has opened (it may load first).
      initialFocus={partial ? lotsInput : undefined}
      footer={
        <>
          <Button variant="secondary" block onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button block disabled={close.isPending} onClick={confirm}>
            {close.isPending && <Spinner className="size-4" />}
            {t('orders.confirm_close')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        <p className="text-sm">{t('orders.close_lots_message', { symbol, lots: order.Quantity })}</p>
        <label htmlFor={`close-lots-${order.Id}`} className="text-xs text-muted">
          {t('orders.close_lots')}
        </label>
        <div className="flex items-center gap-2">
          <button
            type="button"
            aria-label={t('orders.decrease_lots')}
            onClick={() => stepBy(-1)}
            className="size-10 shrink-0 rounded-lg bg-surface-2 text-lg"
          >
            −
          </button>
          <input
            ref={lotsInput}
            id={`close-lots-${order.Id}`}
            type="text"
            inputMode="decimal"
            value={lots}
            onChange={(e) => {
              setLots(e.target.value.replace(',', '.'));
              setError(null);
            }}
            aria-invalid={Boolean(error)}
            aria-describedby={`close-lots-hint-${order.Id}`}
            className="h-10 w-full min-w-0 rounded-lg border border-border bg-surface-2 px-3 text-center text-sm tabular-nums outline-none focus:border-accent"
          />
          <button
            type="button"
            aria-label={t('orders.increase_lots')}
            onClick={() => stepBy(1)}
            className="size-10 shrink-0 rounded-lg bg-surface-2 text-lg"
          >
            +
          </button>
        </div>
        <p id={`close-lots-hint-${order.Id}`} className="text-xs text-muted">
          {deal.data
            ? t('orders.close_lots_hint', { min, step, max: order.Quantity })
            : t('orders.close_lots_hint_all', { max: order.Quantity })}
        </p>
        {error && (
          <p role="alert" className="text-xs text-down">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
