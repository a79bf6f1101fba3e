import { ClosedType, OrderStatus } from '@tp/contract/constants';
import { dec, fixed, moneyStr } from '@tp/contract/decimal';
import type { Notice, NoticeKind } from '@tp/contract/schemas/trading';
import type { MarketService } from '../../market/index.ts';
import type { OrderRow } from '../db/repository.ts';

export type { Notice };

const NOTICE_OF_CLOSE: Partial<Record<number, NoticeKind>> = {
  [ClosedType.TAKE_PROFIT]: 'take_profit',
  [ClosedType.STOP_LOSS]: 'stop_loss',
  [ClosedType.STOP_OUT]: 'stop_out',
  [ClosedType.STAFF]: 'staff_close',
  [ClosedType.DEMO_RESET]: 'demo_reset',
  [ClosedType.COPY_PROVIDER]: 'copy_close',
  [ClosedType.COPY_STOP_LOSS]: 'copy_close',
  [ClosedType.COPY_UNFOLLOW]: 'copy_close',
};

/** The notice a trader gets for an order event, or null when they caused it themselves. */
export function noticeOf(order: OrderRow, market: Pick<MarketService, 'symbol'>): Notice | null {
  let kind: NoticeKind | null = null;
  let price: string | null = null;
  let at: Date | null = order.completedAt;
  if (order.status === OrderStatus.CLOSED) {
    kind = NOTICE_OF_CLOSE[order.closedType ?? 0] ?? null;
    if (kind === 'stop_loss' && order.trailingPoints !== null) kind = 'trailing_stop';
    price = order.closePrice;
  } else if (order.status === OrderStatus.CANCELLED && order.cancelReason !== 'user') {
    kind = 'pending_cancelled';
    price = order.originPrice;
  }
  if (!kind && order.originPrice !== null && (order.status === OrderStatus.OPEN || order.status === OrderStatus.CLOSED)) {
    kind = 'pending_filled';
    price = order.price;
    at = order.openedAt;
  }
  if (!kind) return null;
  const sym = market.symbol(order.symbolId);
  const precision = sym?.pricePrecision ?? 5;
  return {
    kind,
    order_id: order.id,
    forex_id: order.symbolId,
    symbol: sym?.showCode ?? String(order.symbolId),
    order_type: order.orderType,
    lots: dec(order.quantity).toString(),
    price: price === null ? '0' : fixed(price, precision),
    profit: kind === 'pending_filled' || kind === 'pending_cancelled' ? '0' : moneyStr(order.profit ?? 0),
    time: Math.floor((at ?? order.createdAt).getTime() / 1000),
  };
}
