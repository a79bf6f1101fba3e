import { OrderType } from '@tp/contract/constants';
import type { PendingType } from '@tp/contract/schemas/trading';
import { isDecimal } from '../../../lib/stop-levels';
import type { SymbolQuote } from './use-trade-data';

/** The pending order's type (or derived from its price) and when it expires: 0 good till cancelled, 1 end of day, 2 at `expireAt`. */
export interface PendingChoice {
  type: PendingType | 'auto';
  expireType: 0 | 1 | 2;
  /** A datetime-local value (the trader's time zone). */
  expireAt: string;
}

export const DEFAULT_PENDING: PendingChoice = { type: 'auto', expireType: 0, expireAt: '' };

/** A buy below the ask waits for a better price (limit), above it for a breakout (stop); a sell mirrors that on the bid. */
export function derivedPendingType(orderType: number, price: string, quote: Pick<SymbolQuote, 'bid' | 'ask'>): PendingType | null {
  if (!isDecimal(price) || Number(price) <= 0) return null;
  if (orderType === OrderType.BUY) return Number(price) < Number(quote.ask) ? 'buy_limit' : 'buy_stop';
  return Number(price) > Number(quote.bid) ? 'sell_limit' : 'sell_stop';
}

export const sideOfPendingType = (type: PendingType): number => (type.startsWith('buy') ? OrderType.BUY : OrderType.SELL);

/** Unix seconds of a datetime-local value, or null. */
export function expireSeconds(value: string): number | null {
  const time = value ? new Date(value).getTime() : Number.NaN;
  return Number.isFinite(time) ? Math.floor(time / 1000) : null;
}

/** Why this choice cannot be sent with a `orderType` order at `price`: a trade.errors key, or null. */
export function pendingProblem(
  choice: PendingChoice,
  orderType: number,
  price: string,
  quote: Pick<SymbolQuote, 'bid' | 'ask'>,
  now = Date.now(),
) {
  if (choice.expireType === 2) {
    const at = expireSeconds(choice.expireAt);
    if (at === null || at * 1000 <= now) return 'expiry_past' as const;
  }
  if (choice.type === 'auto') return null;
  if (sideOfPendingType(choice.type) !== orderType) return 'pending_side' as const;
  const derived = derivedPendingType(orderType, price, quote);
  if (derived && derived !== choice.type) return 'pending_type_price' as const;
  return null;
}
