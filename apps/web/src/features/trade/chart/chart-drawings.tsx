import type { IPriceLine, ISeriesApi, MouseEventParams, SeriesType, Time } from 'lightweight-charts';
import { type RefObject, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPrice } from '../../../lib/format';
import { atPrecision, type ChartApi } from './chart-series';

/**
 * Horizontal lines the trader drew on this symbol's chart: a press on the chart while drawing
 * adds one at that price; each is listed with a button that removes it.
 */
export function ChartDrawings({
  api,
  prices,
  precision,
  mainVersion,
  drawing,
  onPrices,
}: {
  api: RefObject<ChartApi | null>;
  prices: number[];
  precision: number;
  mainVersion: number;
  drawing: boolean;
  onPrices: (prices: number[], stillDrawing: boolean) => void;
}) {
  const { t } = useTranslation();
  const drawn = useRef<{ series: ISeriesApi<SeriesType>; lines: IPriceLine[] } | null>(null);

  useEffect(() => {
    const chart = api.current;
    if (!chart) return;
    const old = drawn.current;
    // After a chart type change the old series (and its lines) is already gone.
    if (old && old.series === chart.main) for (const line of old.lines) chart.main.removePriceLine(line);
    drawn.current = {
      series: chart.main,
      lines: prices.map((price) =>
        chart.main.createPriceLine({ price, color: chart.accent, lineWidth: 1, lineStyle: 0, axisLabelVisible: true, title: '' }),
      ),
    };
  }, [api, prices, mainVersion]);

  useEffect(() => {
    const chart = api.current;
    if (!chart || !drawing) return;
    const onClick = (param: MouseEventParams<Time>) => {
      if (!param.point) return;
      const price = chart.main.coordinateToPrice(param.point.y);
      if (price === null) return;
      onPrices([...prices, atPrecision(price, precision)], false);
    };
    chart.chart.subscribeClick(onClick);
    return () => chart.chart.unsubscribeClick(onClick);
  }, [api, drawing, prices, precision, onPrices]);

  if (!prices.length) return null;
  return (
    <ul aria-label={t('trade.chart.drawings')} className="flex flex-col items-start gap-0.5">
      {prices.map((price, index) => {
        const text = formatPrice(price, precision);
        return (
          <li
            key={`${price}-${index}`}
            data-testid="chart-drawn-line"
            data-price={price}
            className="flex items-center gap-1 rounded bg-bg/70 ps-1.5 text-[11px] tabular-nums text-text"
          >
            <span aria-hidden className="h-px w-3 bg-accent" />
            {text}
            <button
              type="button"
              aria-label={t('trade.chart.remove_line', { price: text })}
              onClick={() =>
                onPrices(
                  prices.filter((_, i) => i !== index),
                  drawing,
                )
              }
              className="pointer-events-auto rounded px-1.5 py-0.5 text-muted hover:bg-surface-2 hover:text-text"
            >
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}
