import type { Order } from '@tp/contract/schemas/trading';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast-store';
import { formatNumber } from '../../../lib/format';
import { useReverseOrder } from '../api/reverse-order';
import { ClosePositionDialog } from './close-position-dialog';
import { ConfirmDialog } from './confirm-dialog';
import { StopsSheet } from '../../../components/stops-sheet';

/** What can be done to an open position from its card, its table row or its detail sheet. */
export type PositionTool = 'stops' | 'close' | 'partial' | 'reverse';

/** The dialog of the chosen tool: TP/SL and trailing stop, (partial) close, or reverse after confirmation. */
export function PositionToolDialog({
  tool,
  order,
  onClose,
  centred,
}: {
  tool: PositionTool;
  order: Order;
  onClose: () => void;
  centred: boolean;
}) {
  const { t } = useTranslation();
  const reverse = useReverseOrder();
  if (tool === 'stops') return <StopsSheet order={order} centred={centred} onClose={onClose} />;
  if (tool === 'close' || tool === 'partial')
    return <ClosePositionDialog order={order} centred={centred} partial={tool === 'partial'} onClose={onClose} />;
  const symbol = order.ForexTradeLists.ShowCode;
  return (
    <ConfirmDialog
      title={t('orders.reverse_title')}
      message={t(order.OrderType === 1 ? 'orders.reverse_message_buy' : 'orders.reverse_message_sell', { symbol, lots: order.Quantity })}
      busy={reverse.isPending}
      onClose={onClose}
      onConfirm={() =>
        // A promise, not mutate callbacks: the FOREX_CLOSED push of the old position may unmount this dialog first.
        reverse.mutateAsync(order.Id).then((opened) => {
          toast(
            t('orders.reversed_toast', {
              symbol,
              lots: opened.Quantity,
              price: formatNumber(opened.Price, order.ForexTradeLists.PricePrecision),
            }),
            'success',
          );
          onClose();
        }, onClose)
      }
    />
  );
}
