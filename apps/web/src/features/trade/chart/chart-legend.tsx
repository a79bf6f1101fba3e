import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { formatNumber, isolateLtr } from '../../../lib/format';
import { type IndicatorName, type IndicatorParams, paramProblem } from './indicators';
import { ABBREVIATION, LEGEND_LINES, legendName } from './legend';

const DESKTOP = '(min-width: 1024px)';

export type LegendValues = Partial<Record<IndicatorName, Record<string, number>>>;

const paramText = (value: number) => formatNumber(value, 2, { minDecimals: 0, grouping: false });

/**
 * A legend per active indicator over the chart: its name with its parameters and its newest
 * value(s). Pressing one opens its parameters, applied as soon as they are valid.
 */
export function ChartLegends({
  active,
  params,
  values,
  precision,
  onParams,
}: {
  active: readonly IndicatorName[];
  params: IndicatorParams;
  values: LegendValues;
  precision: number;
  onParams: (params: IndicatorParams) => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<IndicatorName | null>(null);
  if (!active.length) return null;
  const valueText = (name: IndicatorName, value: number) => isolateLtr(formatNumber(value, name === 'rsi' ? 2 : precision));
  return (
    <>
      <ul
        aria-label={t('trade.chart.legends')}
        className="pointer-events-none absolute start-1 top-1 z-10 flex flex-col items-start gap-0.5"
      >
        {active.map((name) => (
          <li key={name}>
            <button
              type="button"
              aria-haspopup="dialog"
              data-testid="indicator-legend"
              data-indicator={name}
              onClick={() => setEditing(name)}
              className="pointer-events-auto flex gap-1.5 rounded bg-bg/70 px-1.5 py-0.5 text-[11px] tabular-nums text-text hover:bg-surface-2"
            >
              <span className="font-semibold">{legendName(name, params, paramText)}</span>
              {LEGEND_LINES[name].map((key) =>
                values[name]?.[key] === undefined ? null : (
                  <span key={key} data-line={key} className="text-muted">
                    {valueText(name, values[name][key])}
                  </span>
                ),
              )}
            </button>
          </li>
        ))}
      </ul>
      {editing && <ParamsDialog key={editing} name={editing} params={params} onParams={onParams} onClose={() => setEditing(null)} />}
    </>
  );
}

function ParamsDialog({
  name,
  params,
  onParams,
  onClose,
}: {
  name: IndicatorName;
  params: IndicatorParams;
  onParams: (params: IndicatorParams) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const own = params[name] as unknown as Record<string, number>;
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(Object.entries(own).map(([k, v]) => [k, String(v)])));
  const change = (key: string, text: string) => {
    const next = { ...texts, [key]: text };
    setTexts(next);
    if (Object.entries(next).some(([k, v]) => paramProblem(k, v))) return;
    onParams({ ...params, [name]: Object.fromEntries(Object.entries(next).map(([k, v]) => [k, Number(v.trim())])) });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('trade.chart.settings_title', { name: ABBREVIATION[name] })}
      variant={window.matchMedia(DESKTOP).matches ? 'center' : 'sheet'}
      footer={
        <Button variant="secondary" className="flex-1" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <div className="flex flex-col gap-3 p-4" data-testid="indicator-params">
        {Object.keys(own).map((key) => {
          const problem = paramProblem(key, texts[key] ?? '');
          return (
            <Field
              key={key}
              label={t(`trade.chart.params.${key as 'period' | 'deviation' | 'fast' | 'slow' | 'signal'}`)}
              inputMode={key === 'deviation' ? 'decimal' : 'numeric'}
              dir="ltr"
              value={texts[key] ?? ''}
              onChange={(e) => change(key, e.target.value)}
              error={problem ? t(problem === 'deviation' ? 'trade.chart.deviation_range' : 'trade.chart.period_range') : null}
            />
          );
        })}
      </div>
    </Dialog>
  );
}
