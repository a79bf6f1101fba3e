import { PERIODS, type PeriodName } from '@tp/contract/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const PERIOD_KEY = 'trade-period';

export function usePeriod(): [PeriodName, (period: PeriodName) => void] {
  const [period, setPeriod] = useState<PeriodName>(() => {
    try {
      const stored = localStorage.getItem(PERIOD_KEY);
      return (PERIODS.find((p) => p.period === stored)?.period ?? '1min') as PeriodName;
    } catch {
      return '1min';
    }
  });
  const choose = (next: PeriodName) => {
    setPeriod(next);
    try {
      localStorage.setItem(PERIOD_KEY, next);
    } catch {
      // Without storage the choice lasts for this visit only.
    }
  };
  return [period, choose];
}

/** 1M, 5M, 15M, 30M, 1H, 1D. */
export function PeriodBar({ period, onChange }: { period: PeriodName; onChange: (period: PeriodName) => void }) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={t('trade.periods')} className="flex gap-1 px-3 py-1.5" dir="ltr">
      {PERIODS.map((p) => (
        <button
          key={p.period}
          type="button"
          aria-pressed={period === p.period}
          onClick={() => onChange(p.period)}
          className={`rounded px-2.5 py-1 text-xs ${period === p.period ? 'bg-surface-2 text-accent' : 'text-muted hover:text-text'}`}
        >
          {p.label}
        </button>
      ))}
    </div>
  );
}
