import type { Order } from '@tp/contract/schemas/trading';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './ui/button';
import { Dialog } from './ui/dialog';
import { Spinner } from './ui/spinner';
import { toast } from './ui/toast-store';
import { formatNumber } from '../lib/format';
import { useSetStopPrice } from '../api/set-stop-price';
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
  const precision = order.ForexTradeLists.PricePrecision;
  // A position closes at its current price; a pending order at its target.
  const closeAt = order.Status === 0 ? order.OriginPrice : order.UpdatePrice;

  function submit() {
    const found = stopLevelErrors(stops, order.OrderType, closeAt, precision, t);
    setErrors(found);
    if (found.tp || found.sl) return;
    save.mutate(
      // "0" removes a level.
      { id: order.Id, target_profit_price: stops.takeProfit ?? '0', stop_loss_price: stops.stopLoss ?? '0' },
      {
        onSuccess: () => {
          toast(t('orders.stops_saved'), 'success');
          onClose();
        },
      },
    );
  }

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
          <Button block disabled={save.isPending} onClick={submit}>
            {save.isPending && <Spinner className="size-4" />}
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
      </div>
    </Dialog>
  );
}
