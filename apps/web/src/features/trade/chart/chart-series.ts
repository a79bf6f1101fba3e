import type { KlineBar } from '@tp/contract/schemas/market';
import type { BarData, HistogramData, IChartApi, ISeriesApi, LineData, SeriesType, UTCTimestamp } from 'lightweight-charts';
import type { ChartType } from './chart-prefs';
import type { IndicatorLayer } from './indicator-layer';
import type { Closes } from './indicators';
import type { OrderLines } from './order-lines';
import type { TrendLinesPrimitive } from './trend-lines';

type Lib = typeof import('lightweight-charts');

/** The chart and what is drawn on it, once the library has loaded. */
export interface ChartApi {
  lib: Lib;
  chart: IChartApi;
  main: ISeriesApi<SeriesType>;
  volume: ISeriesApi<'Histogram'>;
  indicators: IndicatorLayer;
  lines: OrderLines;
  /** The trend lines drawn on the price series (set once they are attached). */
  trends?: TrendLinesPrimitive;
  up: string;
  down: string;
  accent: string;
}

/** A clicked price kept to the symbol's precision (the chart answers a float for a pixel). */
export const atPrecision = (price: number, precision: number) => Math.round(price * 10 ** precision) / 10 ** precision;

export const toTime = (ms: number) => Math.floor(ms / 1000) as UTCTimestamp;

// The chart library draws with numbers; these values are only pixels, never money.
export function toPoint(type: ChartType, bar: KlineBar): BarData | LineData {
  if (type === 'line') return { time: toTime(bar.Time), value: Number(bar.Close) };
  return { time: toTime(bar.Time), open: Number(bar.Open), high: Number(bar.High), low: Number(bar.Low), close: Number(bar.Close) };
}

export const toVolume = (bar: KlineBar, up: string, down: string): HistogramData => ({
  time: toTime(bar.Time),
  value: Number(bar.Volume),
  color: `${Number(bar.Close) >= Number(bar.Open) ? up : down}66`,
});

export const closesOf = (bars: KlineBar[]): Closes => ({
  times: bars.map((b) => toTime(b.Time)),
  closes: bars.map((b) => Number(b.Close)),
});

export interface MainSeriesStyle {
  up: string;
  down: string;
  accent: string;
}

/**
 * The price series for a chart type, on the price pane. Its scale fits the bars only: the trader's
 * order lines (entry, TP, SL) take no part in it, so a TP far from the price does not flatten the
 * candles (as in MT5); a line outside the range is simply not in view.
 */
export function addMainSeries(lib: Lib, chart: IChartApi, type: ChartType, style: MainSeriesStyle): ISeriesApi<SeriesType> {
  const { up, down, accent } = style;
  if (type === 'line') return chart.addSeries(lib.LineSeries, { color: accent, lineWidth: 2 });
  if (type === 'bars') return chart.addSeries(lib.BarSeries, { upColor: up, downColor: down, thinBars: false });
  return chart.addSeries(lib.CandlestickSeries, {
    upColor: up,
    downColor: down,
    wickUpColor: up,
    wickDownColor: down,
    borderVisible: false,
  });
}
