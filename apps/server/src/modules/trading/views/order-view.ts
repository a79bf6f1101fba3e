import { OrderType } from '@tp/contract/constants';
import { type Dec, type DecInput, dec, fixed, moneyStr } from '@tp/contract/decimal';
import type { Order } from '@tp/contract/schemas/trading';
import type { SymbolInfo } from '../../market/index.ts';
import type { Markup } from '@tp/contract/formulas';
import type { OrderRow } from '../db/repository.ts';

/** Display form of a timestamp (UTC), as CreateTimeHandler and CreatedAtTran show it. */
export const displayTime = (d: Date | null | undefined): string => (d ? d.toISOString().slice(0, 19).replace('T', ' ') : '');
export const epochSeconds = (d: Date | null | undefined): number => (d ? Math.floor(d.getTime() / 1000) : 0);

const priceStr = (v: DecInput | null | undefined, precision: number): string => (v == null || dec(v).isZero() ? '0' : fixed(v, precision));

/**
 * An order in the wire shape of PROTOCOL.md. For an open position `live` carries the current close
 * price and floating profit (UpdatePrice and FactProfits); otherwise the stored values are shown.
 */
export function orderView(row: OrderRow, sym: SymbolInfo | undefined, live?: { closePrice: Dec | null; profit: Dec }): Order {
  const precision = sym?.pricePrecision ?? 5;
  return {
    Id: row.id,
    UserId: row.userId,
    ForexId: row.symbolId,
    OrderType: row.orderType,
    Status: row.status,
    Quantity: dec(row.quantity).toString(),
    Multiple: row.leverage,
    OriginPrice: priceStr(row.originPrice, precision),
    Price: priceStr(row.price, precision),
    UpdatePrice: priceStr(live ? live.closePrice : row.closePrice, precision),
    TargetProfitPrice: priceStr(row.takeProfit, precision),
    TargetLossPrice: priceStr(row.stopLoss, precision),
    CautionMoney: moneyStr(row.margin),
    TradeFee: moneyStr(row.fee),
    FactProfits: moneyStr(live ? live.profit : row.profit),
    Swap: moneyStr(row.swap),
    ClosedType: row.closedType ?? 0,
    CancelReason: row.cancelReason ?? '',
    Reversed: row.reversedAt ? 1 : 0,
    PendingType: row.pendingKind ? (`${row.orderType === OrderType.BUY ? 'buy' : 'sell'}_${row.pendingKind}` as Order['PendingType']) : '',
    ExpireTime: epochSeconds(row.expiresAt),
    TrailingPoints: row.trailingPoints ?? 0,
    ForexContNum: dec(row.contractSize).toString(),
    CreateTime: epochSeconds(row.createdAt),
    CompleteTime: epochSeconds(row.completedAt),
    CreateTimeHandler: displayTime(row.createdAt),
    CompleteTimeHandler: displayTime(row.completedAt),
    ForexTradeLists: {
      Id: row.symbolId,
      Code: sym?.code ?? '',
      ShowCode: sym?.showCode ?? '',
      PricePrecision: precision,
      Logo: sym?.logo ?? '',
    },
  };
}

/** The group's spread markup an order trades with (null: none). */
export const markupOfRow = (row: Pick<OrderRow, 'markupBid' | 'markupAsk'>): Markup | null =>
  row.markupBid == null && row.markupAsk == null ? null : { bid: row.markupBid ?? '0', ask: row.markupAsk ?? '0' };

/** The terms figures need, parsed from a stored order. */
export const termsOf = (row: OrderRow) => ({
  symbolId: row.symbolId,
  orderType: row.orderType,
  quantity: dec(row.quantity),
  openPrice: dec(row.price ?? 0),
  contractSize: dec(row.contractSize),
  margin: dec(row.margin),
  markup: markupOfRow(row),
});
