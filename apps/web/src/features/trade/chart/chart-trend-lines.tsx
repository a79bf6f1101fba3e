import type { MouseEventParams, Time } from 'lightweight-charts';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPrice } from '../../../lib/format';
import { atPrecision, type ChartApi } from './chart-series';
import { type TrendLine, TrendLinesPrimitive, type TrendPoint, trendLineIndex } from './trend-lines';

/** Whether `chart` is still the one shown (a cleanup after the chart was removed has nothing to undo on it). */
const isCurrent = (api: RefObject<ChartApi | null>, chart: ChartApi) => api.current === chart;

/** The bar time and price under a click or tap, or null off the bars (the empty space right of the last one). */
function pointAt(chart: ChartApi, param: MouseEventParams<Time>, precision: number): TrendPoint | null {
  if (!param.point) return null;
  const time = param.time ?? chart.chart.timeScale().coordinateToTime(param.point.x);
  const price = chart.main.coordinateToPrice(param.point.y);
  if (typeof time !== 'number' || price === null) return null;
  return { time, price: atPrecision(price, precision) };
}

/**
 * Trend lines the trader drew on this symbol's chart: while drawing, the first press picks where
 * the line starts and the second where it ends (the line follows the pointer in between). A line is
 * selected by pressing it on the chart or its entry in the list, and removed with its button.
 */
export function ChartTrendLines({
  api,
  lines,
  precision,
  mainVersion,
  drawing,
  onLines,
}: {
  api: RefObject<ChartApi | null>;
  lines: TrendLine[];
  precision: number;
  mainVersion: number;
  drawing: boolean;
  onLines: (lines: TrendLine[], stillDrawing: boolean) => void;
}) {
  const { t } = useTranslation();
  const primitive = useRef<TrendLinesPrimitive | null>(null);
  const [start, setStart] = useState<TrendPoint | null>(null);
  const [hover, setHover] = useState<TrendPoint | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const shownSelected = selected !== null && selected < lines.length ? selected : null;

  // On the price series; after a chart type change the series is a new one, and the lines move onto it.
  useEffect(() => {
    const chart = api.current;
    if (!chart) return;
    const series = chart.main;
    const drawn = new TrendLinesPrimitive(chart.accent);
    series.attachPrimitive(drawn);
    primitive.current = drawn;
    chart.trends = drawn;
    return () => {
      if (primitive.current === drawn) primitive.current = null;
      if (chart.trends === drawn) chart.trends = undefined;
      // A chart already removed (the layout switched, the page left) took its series along: nothing to detach.
      if (isCurrent(api, chart) && chart.main === series) series.detachPrimitive(drawn);
    };
  }, [api, mainVersion]);

  useEffect(() => {
    const draft = drawing && start ? { from: start, to: hover ?? start } : null;
    primitive.current?.set(lines, shownSelected, draft);
  }, [lines, shownSelected, drawing, start, hover, mainVersion]);

  // Leaving the tool drops a line begun but not finished.
  useEffect(() => {
    if (drawing) return;
    setStart(null);
    setHover(null);
  }, [drawing]);

  useEffect(() => {
    const chart = api.current;
    if (!chart) return;
    const onClick = (param: MouseEventParams<Time>) => {
      if (!drawing) {
        // A tap sets no hovered object: the line under the press is found the same way.
        const hit = param.hoveredObjectId ?? (param.point && primitive.current?.hitTest(param.point.x, param.point.y)?.externalId);
        const index = trendLineIndex(hit);
        if (index !== null) setSelected((current) => (current === index ? null : index));
        return;
      }
      const point = pointAt(chart, param, precision);
      if (!point) return;
      if (!start) {
        setStart(point);
        return;
      }
      if (point.time === start.time && point.price === start.price) return;
      setStart(null);
      setHover(null);
      onLines([...lines, { from: start, to: point }], false);
    };
    const onMove = (param: MouseEventParams<Time>) => setHover(pointAt(chart, param, precision));
    chart.chart.subscribeClick(onClick);
    if (drawing && start) chart.chart.subscribeCrosshairMove(onMove);
    return () => {
      if (!isCurrent(api, chart)) return;
      chart.chart.unsubscribeClick(onClick);
      chart.chart.unsubscribeCrosshairMove(onMove);
    };
  }, [api, drawing, start, lines, precision, onLines, mainVersion]);

  return (
    <>
      {drawing && (
        <p role="status" data-testid="trend-hint" className="rounded bg-bg/70 px-1.5 text-[11px] text-text">
          {t(start ? 'trade.chart.trend_end' : 'trade.chart.trend_start')}
        </p>
      )}
      {lines.length > 0 && (
        <ul aria-label={t('trade.chart.trend_lines')} className="flex flex-col items-start gap-0.5">
          {lines.map((line, index) => {
            const from = formatPrice(line.from.price, precision);
            const to = formatPrice(line.to.price, precision);
            return (
              <li
                key={`${line.from.time}-${line.from.price}-${line.to.time}-${line.to.price}-${index}`}
                data-testid="chart-trend-line"
                data-selected={index === shownSelected}
                data-from={JSON.stringify(line.from)}
                data-to={JSON.stringify(line.to)}
                className="flex items-center rounded bg-bg/70 text-[11px] tabular-nums text-text"
              >
                <button
                  type="button"
                  aria-pressed={index === shownSelected}
                  aria-label={t('trade.chart.select_trend', { from, to })}
                  onClick={() => setSelected(index === shownSelected ? null : index)}
                  className={`pointer-events-auto flex min-h-6 items-center gap-1 rounded px-1.5 py-0.5 hover:bg-surface-2 ${index === shownSelected ? 'text-accent' : ''}`}
                >
                  <span aria-hidden className="h-px w-3 -rotate-45 bg-accent" />
                  {t('trade.chart.trend_entry', { from, to })}
                </button>
                <button
                  type="button"
                  aria-label={t('trade.chart.remove_trend', { from, to })}
                  onClick={() => {
                    setSelected(null);
                    onLines(
                      lines.filter((_, i) => i !== index),
                      drawing,
                    );
                  }}
                  className="pointer-events-auto min-h-6 min-w-6 rounded px-1.5 py-0.5 text-muted hover:bg-surface-2 hover:text-text"
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
