import { OrderType } from '@tp/contract/constants';
import { PENDING_TYPES } from '@tp/contract/schemas/trading';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { derivedPendingType, type PendingChoice } from './pending-types';
import type { SymbolQuote } from './use-trade-data';

const selectClass = 'h-9 w-full min-w-0 rounded-lg border border-border bg-surface-2 px-2 text-sm';

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
          <select
            value={choice.type}
            onChange={(e) => onChange({ ...choice, type: e.target.value as PendingChoice['type'] })}
            className={selectClass}
          >
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
