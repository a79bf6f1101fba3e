import type { IChartApi, ISeriesApi, LineWidth, UTCTimestamp } from 'lightweight-charts';
import {
  computeIndicator,
  type Closes,
  DEFAULT_PARAMS,
  type IndicatorName,
  type IndicatorParams,
  INDICATORS,
  OVERLAYS,
} from './indicators';

type Lib = typeof import('lightweight-charts');
type LineSeries = ISeriesApi<'Line'> | ISeriesApi<'Histogram'>;

const COLOURS: Record<string, string> = {
  sma: '#22d3ee',
  ema: '#3b82f6',
  upper: '#a855f7',
  middle: '#a855f780',
  lower: '#a855f7',
  rsi: '#f97316',
  macd: '#3b82f6',
  signal: '#f97316',
};

/** Oscillator panes take this share of the height the price pane has. */
const OSCILLATOR_STRETCH = 0.35;

/** The indicator series on the chart: overlays on the price pane, RSI and MACD in panes of their own. */
export class IndicatorLayer {
  private series = new Map<IndicatorName, Record<string, LineSeries>>();
  private active: IndicatorName[] = [];
  private params: IndicatorParams = DEFAULT_PARAMS;
  /** Each active indicator's newest value of each of its lines, for the legends. */
  onValues: (values: Partial<Record<IndicatorName, Record<string, number>>>) => void = () => undefined;

  constructor(
    private readonly lib: Lib,
    private readonly chart: IChartApi,
    private readonly up: string,
    private readonly down: string,
  ) {}

  setActive(names: readonly IndicatorName[], data: Closes): void {
    const next = INDICATORS.filter((n) => names.includes(n));
    if (next.join() === this.active.join()) return;
    this.removeAll();
    this.active = next;
    let pane = 0;
    for (const name of next) {
      const paneIndex = OVERLAYS.includes(name) ? 0 : ++pane;
      this.series.set(name, this.addSeries(name, paneIndex));
    }
    for (const [index, p] of this.chart.panes().entries()) if (index > 0) p.setStretchFactor(OSCILLATOR_STRETCH);
    this.update(data);
  }

  /** New parameters: the active lines are computed again. */
  setParams(params: IndicatorParams, data: Closes): void {
    if (JSON.stringify(params) === JSON.stringify(this.params)) return;
    this.params = params;
    this.update(data);
  }

  update(data: Closes): void {
    const latest: Partial<Record<IndicatorName, Record<string, number>>> = {};
    for (const [name, lines] of this.series) {
      const values = computeIndicator(name, data, this.params) as Record<string, { time: number; value: number }[] | undefined>;
      latest[name] = {};
      for (const [key, series] of Object.entries(lines)) {
        const last = values[key]?.at(-1);
        if (last) latest[name][key] = last.value;
        const points = (values[key] ?? []).map((p) => ({ time: p.time as UTCTimestamp, value: p.value }));
        if (key === 'histogram') series.setData(points.map((p) => ({ ...p, color: p.value >= 0 ? `${this.up}99` : `${this.down}99` })));
        else series.setData(points);
      }
    }
    this.onValues(latest);
  }

  private addSeries(name: IndicatorName, paneIndex: number): Record<string, LineSeries> {
    const line = (key: string, width: LineWidth = 1) =>
      this.chart.addSeries(
        this.lib.LineSeries,
        {
          color: COLOURS[key],
          lineWidth: width,
          priceLineVisible: false,
          lastValueVisible: paneIndex > 0,
          crosshairMarkerVisible: false,
          title: '',
        },
        paneIndex,
      );
    if (name === 'bb') return { upper: line('upper'), middle: line('middle'), lower: line('lower') };
    if (name === 'rsi') {
      const rsi = line('rsi', 2);
      for (const level of [70, 30])
        rsi.createPriceLine({ price: level, color: '#848e9c', lineStyle: 2, lineWidth: 1, axisLabelVisible: false, title: '' });
      return { rsi };
    }
    if (name === 'macd') {
      const histogram = this.chart.addSeries(this.lib.HistogramSeries, { priceLineVisible: false, lastValueVisible: false }, paneIndex);
      return { histogram, macd: line('macd', 2), signal: line('signal') };
    }
    return { [name]: line(name, 2) };
  }

  private removeAll(): void {
    for (const lines of this.series.values()) for (const s of Object.values(lines)) this.chart.removeSeries(s);
    this.series.clear();
    const panes = this.chart.panes();
    for (let i = panes.length - 1; i > 0; i--) if (panes[i]?.getSeries().length === 0) this.chart.removePane(i);
  }
}
