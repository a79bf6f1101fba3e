import { useTranslation } from 'react-i18next';
import type { StopErrors, StopLevels } from '../../lib/stop-levels';

export interface StopLevelInputProps {
  /** Whether this level is set; the price field is disabled while it is not. */
  enabled: boolean;
  onEnabled: (enabled: boolean) => void;
  value: string;
  onValue: (value: string) => void;
  /** Text of the tick box (e.g. "Take profit"). */
  label: string;
  /** Accessible name of the price field. */
  priceLabel: string;
  placeholder?: string;
  error?: string;
}

/** A take-profit or stop-loss level: a tick box that enables a price (minimum 0), and its error. */
export function StopLevelInput({ enabled, onEnabled, value, onValue, label, priceLabel, placeholder, error }: StopLevelInputProps) {
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <label className="flex w-28 shrink-0 items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={enabled}
            onChange={(e) => onEnabled(e.target.checked)}
            className="size-4 accent-[var(--color-accent)]"
          />
          {label}
        </label>
        <input
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          disabled={!enabled}
          value={value}
          onChange={(e) => onValue(e.target.value)}
          aria-label={priceLabel}
          aria-invalid={Boolean(error)}
          placeholder={placeholder}
          className="h-10 min-w-0 flex-1 rounded-lg border border-border bg-surface-2 px-3 text-sm tabular-nums outline-none focus:border-accent disabled:opacity-50"
        />
      </div>
      {error && <p className="text-xs text-down">{error}</p>}
    </div>
  );
}

/** Take-profit and stop-loss, one StopLevelInput each, from a useStopLevels state. */
export function StopLevelInputs({ levels, errors, placeholder }: { levels: StopLevels; errors: StopErrors; placeholder?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <StopLevelInput
        enabled={levels.tpOn}
        onEnabled={levels.setTpOn}
        value={levels.tp}
        onValue={levels.setTp}
        label={t('trade.take_profit')}
        priceLabel={t('trade.take_profit_price')}
        placeholder={placeholder}
        error={errors.tp}
      />
      <StopLevelInput
        enabled={levels.slOn}
        onEnabled={levels.setSlOn}
        value={levels.sl}
        onValue={levels.setSl}
        label={t('trade.stop_loss')}
        priceLabel={t('trade.stop_loss_price')}
        placeholder={placeholder}
        error={errors.sl}
      />
    </>
  );
}
