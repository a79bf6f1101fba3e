import { OrderType } from '@tp/contract/constants';
import { PENDING_TYPES, type PendingType } from '@tp/contract/schemas/trading';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
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

const selectClass = 'h-9 w-full min-w-0 rounded-lg border border-border bg-surface-2 px-2 text-sm';

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
export function pendingProblem(choice: PendingChoice, orderType: number, price: string, quote: Pick<SymbolQuote, 'bid' | 'ask'>, now = Date.now()) {
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

/** The type and expiry selects shown when "pending" is chosen; with "auto", the type each side would get is shown live. */
export function PendingOptions({
  choice,
  onChange,
  price,
  quote,
}: {
  choice: PendingChoice;
  onChange: (choice: PendingChoice) => void;
  price: string;
  quote: Pick<SymbolQuote, 'bid' | 'ask'>;
}) {
  const { t } = useTranslation();
  const id = useId();
  const buyType = derivedPendingType(OrderType.BUY, price, quote);
  const sellType = derivedPendingType(OrderType.SELL, price, quote);
  return (
    <div className="flex flex-col gap-2">
      <div className="grid grid-cols-2 gap-2">
        <label className="flex min-w-0 flex-col gap-1 text-xs text-muted">
          {t('trade.pending_type')}
          <select value={choice.type} onChange={(e) => onChange({ ...choice, type: e.target.value as PendingChoice['type'] })} className={selectClass}>
            <option value="auto">{t('trade.pending_auto')}</option>
            {PENDING_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`trade.pending_types.${type}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex min-w-0 flex-col gap-1 text-xs text-muted">
          {t('trade.expiry')}
          <select
            value={choice.expireType}
            onChange={(e) => onChange({ ...choice, expireType: Number(e.target.value) as PendingChoice['expireType'] })}
            className={selectClass}
          >
            <option value={0}>{t('trade.expiry_gtc')}</option>
            <option value={1}>{t('trade.expiry_day')}</option>
            <option value={2}>{t('trade.expiry_date')}</option>
          </select>
        </label>
      </div>
      {choice.type === 'auto' && buyType && sellType && (
        <p className="text-xs text-muted" data-testid="derived-pending-type" aria-live="polite">
          {t('trade.pending_derived', { buy: t(`trade.pending_types.${buyType}`), sell: t(`trade.pending_types.${sellType}`) })}
        </p>
      )}
      {choice.expireType === 2 && (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-expire`} className="text-xs text-muted">
            {t('trade.expiry_at')}
          </label>
          <input
            id={`${id}-expire`}
            type="datetime-local"
            value={choice.expireAt}
            onChange={(e) => onChange({ ...choice, expireAt: e.target.value })}
            className="h-10 w-full min-w-0 rounded-lg border border-border bg-surface-2 px-3 text-sm tabular-nums outline-none focus:border-accent"
          />
        </div>
      )}
    </div>
  );
}
