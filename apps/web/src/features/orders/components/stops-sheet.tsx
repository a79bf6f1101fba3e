import { stopsValid } from '@tp/contract/formulas';
import { OrderType } from '@tp/contract/constants';
import type { Order } from '@tp/contract/schemas/trading';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { formatNumber } from '../../../lib/format';
import { useSetStopPrice } from '../api/set-stop-price';
import { StopLevelInput } from '../../../components/ui/stop-level-input';

const isDecimal = (value: string) => /^\d+(\.\d+)?$/.test(value.trim());
const isSet = (value: string) => Boolean(value) && Number(value) !== 0;

/** Edits take-profit and stop-loss of a position; each is active only when ticked. */
export function StopsSheet({ order, onClose, centred }: { order: Order; onClose: () => void; centred: boolean }) {
  const { t } = useTranslation();
  const save = useSetStopPrice();
  const [tpOn, setTpOn] = useState(isSet(order.TargetProfitPrice));
  const [tp, setTp] = useState(isSet(order.TargetProfitPrice) ? order.TargetProfitPrice : '');
  const [slOn, setSlOn] = useState(isSet(order.TargetLossPrice));
  const [sl, setSl] = useState(isSet(order.TargetLossPrice) ? order.TargetLossPrice : '');
  const [errors, setErrors] = useState<{ tp?: string; sl?: string }>({});
  const precision = order.ForexTradeLists.PricePrecision;
  const buy = order.OrderType === OrderType.BUY;
  // A position closes at its current price; a pending order at its target.
  const closeAt = order.Status === 0 ? order.OriginPrice : order.UpdatePrice;

  function submit() {
    const found: { tp?: string; sl?: string } = {};
    if (tpOn && !isDecimal(tp)) found.tp = t('orders.tp_required');
    if (slOn && !isDecimal(sl)) found.sl = t('orders.sl_required');
    if (isDecimal(closeAt) && Number(closeAt) > 0) {
      const check = stopsValid(order.OrderType, closeAt, tpOn && !found.tp ? tp : null, slOn && !found.sl ? sl : null);
      const price = formatNumber(closeAt, precision);
      if (!check.tp) found.tp = t(buy ? 'orders.tp_buy' : 'orders.tp_sell', { price });
      if (!check.sl) found.sl = t(buy ? 'orders.sl_buy' : 'orders.sl_sell', { price });
    }
    setErrors(found);
    if (found.tp || found.sl) return;
    save.mutate(
      { id: order.Id, target_profit_price: tpOn ? tp.trim() : '0', stop_loss_price: slOn ? sl.trim() : '0' },
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
        <StopLevelInput
          enabled={tpOn}
          onEnabled={setTpOn}
          value={tp}
          onValue={setTp}
          label={t('orders.take_profit')}
          priceLabel={t('orders.take_profit_price')}
          error={errors.tp}
        />
        <StopLevelInput
          enabled={slOn}
          onEnabled={setSlOn}
          value={sl}
          onValue={setSl}
          label={t('orders.stop_loss')}
          priceLabel={t('orders.stop_loss_price')}
          error={errors.sl}
        />
      </div>
    </Dialog>
  );
}
