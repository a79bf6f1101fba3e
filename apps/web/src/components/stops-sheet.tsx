import type { Order } from '@tp/contract/schemas/trading';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './ui/button';
import { Dialog } from './ui/dialog';
import { Spinner } from './ui/spinner';
import { toast } from './ui/toast-store';
import { formatNumber } from '../lib/format';
import { useSetStopPrice } from '../api/set-stop-price';
import { useSetTrailing } from '../api/set-trailing';
import { StopLevelInputs } from './ui/stop-level-input';
import { type StopErrors, stopLevelErrors, useStopLevels } from '../lib/stop-levels';

const isSet = (value: string) => Boolean(value) && Number(value) !== 0;

/**
 * Edits take-profit and stop-loss of a position; each is active only when ticked. `proposed` starts
 * the form at other levels (a line dragged on the chart) for the trader to confirm.
 */
export function StopsSheet({
  order,
  onClose,
  centred,
  proposed,
}: {
  order: Order;
  onClose: () => void;
  centred: boolean;
  proposed?: { takeProfit?: string; stopLoss?: string };
}) {
  const { t } = useTranslation();
  const save = useSetStopPrice();
  const stops = useStopLevels(
    proposed?.takeProfit ?? (isSet(order.TargetProfitPrice) ? order.TargetProfitPrice : ''),
    proposed?.stopLoss ?? (isSet(order.TargetLossPrice) ? order.TargetLossPrice : ''),
  );
  const [errors, setErrors] = useState<StopErrors>({});
  const trailing = useSetTrailing();
  const position = order.Status === 1;
  const [trailingPoints, setTrailingPoints] = useState(order.TrailingPoints ? String(order.TrailingPoints) : '');
  const [trailingError, setTrailingError] = useState<string | null>(null);
  const precision = order.ForexTradeLists.PricePrecision;
  // A position closes at its current price; a pending order at its target.
  const closeAt = order.Status === 0 ? order.OriginPrice : order.UpdatePrice;

  function submit() {
    const found = stopLevelErrors(stops, order.OrderType, closeAt, precision, t);
    setErrors(found);
    const points = trailingPoints.trim() === '' ? 0 : Number(trailingPoints);
    const badTrailing = !Number.isInteger(points) || points < 0 || points > 1_000_000;
    setTrailingError(badTrailing ? t('orders.trailing_invalid') : null);
    if (found.tp || found.sl || badTrailing) return;
    save.mutate(
      // "0" removes a level.
      { id: order.Id, target_profit_price: stops.takeProfit ?? '0', stop_loss_price: stops.stopLoss ?? '0' },
      {
        onSuccess: () => {
          if (!position || points === order.TrailingPoints) {
            toast(t('orders.stops_saved'), 'success');
            onClose();
            return;
          }
          trailing.mutate(
            { id: order.Id, points },
            {
              onSuccess: () => {
                toast(points ? t('orders.trailing_saved', { points }) : t('orders.trailing_removed'), 'success');
                onClose();
              },
            },
          );
        },
      },
    );
  }
  const busy = save.isPending || trailing.isPending;

  return (
    <Dialog
      open
      onClose={onClose}
      variant={centred ? 'center' : 'sheet'}
      title={t('orders.edit_stops_title', { symbol: order.ForexTradeLists.ShowCode })}
      footer={
        <>
          <Button variant="secondary" block onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button block disabled={busy} onClick={submit}>
            {busy && <Spinner className="size-4" />}
            {t('orders.save')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        <p className="text-xs text-muted">
          {t('orders.market_price')}: <span className="tabular-nums text-text">{formatNumber(closeAt, precision)}</span>
        </p>
        <StopLevelInputs levels={stops} errors={errors} />
        {position && (
          <div className="flex flex-col gap-1">
            <label htmlFor={`trailing-${order.Id}`} className="text-sm text-muted">
              {t('orders.trailing_stop')}
            </label>
            <input
              id={`trailing-${order.Id}`}
              type="text"
              inputMode="numeric"
              value={trailingPoints}
              placeholder="0"
              onChange={(e) => setTrailingPoints(e.target.value.replace(/[^0-9]/g, ''))}
              aria-invalid={Boolean(trailingError)}
              aria-describedby={`trailing-hint-${order.Id}`}
              className="h-10 w-full min-w-0 rounded-lg border border-border bg-surface-2 px-3 text-sm tabular-nums outline-none focus:border-accent"
            />
            <p id={`trailing-hint-${order.Id}`} className="text-xs text-muted">
              {t('orders.trailing_hint')}
            </p>
            {trailingError && (
              <p role="alert" className="text-xs text-down">
                {trailingError}
              </p>
            )}
          </div>
        )}
      </div>
    </Dialog>
  );
}
