import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import type { Slippage } from './slippage';

/** The market order's slippage tolerance in points, with what that is in price. */
export function SlippageField({ slippage, precision, error }: { slippage: Slippage; precision: number; error?: string }) {
  const { t } = useTranslation();
  const inPrice = slippage.points === null ? null : formatNumber(slippage.points / 10 ** precision, precision, { grouping: false });
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-center justify-between gap-3 text-sm">
        <span className="text-muted">{t('trade.slippage')}</span>
        <span className="flex items-center gap-2">
          <input
            type="text"
            inputMode="numeric"
            value={slippage.text}
            onChange={(e) => slippage.setText(e.target.value.trim())}
            aria-invalid={Boolean(error)}
            aria-describedby="slippage-hint"
            data-testid="slippage"
            className="h-9 w-24 rounded-lg border border-border bg-surface-2 px-2 text-end text-sm tabular-nums outline-none focus:border-accent"
          />
          <span className="text-xs text-muted">{t('trade.points')}</span>
        </span>
      </label>
      <p id="slippage-hint" className="text-[11px] text-muted">
        {inPrice === null ? t('trade.slippage_hint_empty') : t('trade.slippage_hint', { price: inPrice, default: slippage.defaultPoints ?? '--' })}
      </p>
      {error && <p className="text-xs text-down">{error}</p>}
    </div>
  );
}
