import { CHART_PERIODS, type ChartPeriodName } from '@tp/contract/chart-periods';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const PERIOD_KEY = 'trade-period';

export function usePeriod(): [ChartPeriodName, (period: ChartPeriodName) => void] {
  const [period, setPeriod] = useState<ChartPeriodName>(() => {
    try {
      const stored = localStorage.getItem(PERIOD_KEY);
      return (CHART_PERIODS.find((p) => p.period === stored)?.period ?? '1min') as ChartPeriodName;
    } catch {
      return '1min';
    }
  });
  const choose = (next: ChartPeriodName) => {
    setPeriod(next);
    try {
      localStorage.setItem(PERIOD_KEY, next);
    } catch {
      // Without storage the choice lasts for this visit only.
    }
  };
  return [period, choose];
}

/** 1M, 5M, 15M, 30M, 1H, 4H, 1D, 1W, 1MN. */
export function PeriodBar({ period, onChange }: { period: ChartPeriodName; onChange: (period: ChartPeriodName) => void }) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={t('trade.periods')} className="flex gap-1 overflow-x-auto px-3 py-1.5" dir="ltr">
      {CHART_PERIODS.map((p) => (
        <button
          key={p.period}
          type="button"
          aria-pressed={period === p.period}
          onClick={() => onChange(p.period)}
          className={`shrink-0 rounded px-2.5 py-1 text-xs ${period === p.period ? 'bg-surface-2 text-accent' : 'text-muted hover:text-text'}`}
        >
          {p.label}
        </button>
      ))}
    </div>
  );
}
