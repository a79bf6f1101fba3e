import { useTranslation } from 'react-i18next';
import { CHART_TYPES, type ChartPrefs } from './chart-prefs';
import { INDICATORS, type IndicatorName, paramValues } from './indicators';
import { ABBREVIATION } from './legend';

export type DrawingTool = 'hline' | 'trend';

const chip = (on: boolean) => `shrink-0 rounded px-2 py-0.5 text-xs ${on ? 'bg-surface-2 text-accent' : 'text-muted hover:text-text'}`;

/** Chart type (candles, bars, line), the indicator toggles, and the drawing tools (a horizontal line, a trend line). */
export function ChartToolbar({
  prefs,
  onChange,
  tool,
  onTool,
}: {
  prefs: ChartPrefs;
  onChange: (next: ChartPrefs) => void;
  tool: DrawingTool | null;
  onTool: (tool: DrawingTool | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const toggle = (name: IndicatorName) =>
    onChange({
      ...prefs,
      indicators: prefs.indicators.includes(name) ? prefs.indicators.filter((n) => n !== name) : [...prefs.indicators, name],
    });
  return (
    <div className="flex items-center gap-3 overflow-x-auto px-3 py-1" dir="ltr">
      <div role="group" aria-label={t('trade.chart.type')} className="flex shrink-0 gap-1">
        {CHART_TYPES.map((type) => (
          <button
            key={type}
            type="button"
            aria-pressed={prefs.type === type}
            onClick={() => onChange({ ...prefs, type })}
            className={chip(prefs.type === type)}
          >
            {t(`trade.chart.types.${type}`)}
          </button>
        ))}
      </div>
      <span aria-hidden className="h-4 w-px shrink-0 bg-border" />
      <div role="group" aria-label={t('trade.chart.indicators')} className="flex shrink-0 gap-1">
        {INDICATORS.map((name) => (
          <button
            key={name}
            type="button"
            aria-pressed={prefs.indicators.includes(name)}
            title={t(`trade.chart.indicator_names.${name}`, {
              params: paramValues(name, prefs.params).join(i18n.dir() === 'rtl' ? '، ' : ', '),
            })}
            data-indicator={name}
            onClick={() => toggle(name)}
            className={chip(prefs.indicators.includes(name))}
          >
            {ABBREVIATION[name]}
          </button>
        ))}
      </div>
      <span aria-hidden className="h-4 w-px shrink-0 bg-border" />
      <div role="group" aria-label={t('trade.chart.drawing_tools')} className="flex shrink-0 gap-1">
        {(['hline', 'trend'] as const).map((name) => (
          <button
            key={name}
            type="button"
            aria-pressed={tool === name}
            data-testid={`draw-${name}`}
            onClick={() => onTool(tool === name ? null : name)}
            className={chip(tool === name)}
          >
            {t(`trade.chart.${name}`)}
          </button>
        ))}
      </div>
    </div>
  );
}
