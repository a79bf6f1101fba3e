import { type ChartPeriodName, derivedBarStart, derivedPeriod } from '@tp/contract/chart-periods';
import type { KlineBar } from '@tp/contract/schemas/market';
import type { LogicalRange } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useSocketTopic } from '../../../lib/use-socket';
import { getKline, KLINE_PAGE } from '../api/get-kline';
import { useChartPrefs } from '../chart/chart-prefs';
import { addMainSeries, type ChartApi, closesOf, toPoint, toVolume } from '../chart/chart-series';
import { ChartLegends, type LegendValues } from '../chart/chart-legend';
import { ChartDrawings } from '../chart/chart-drawings';
import { ChartToolbar, type DrawingTool } from '../chart/chart-toolbar';
import { ChartTrendLines } from '../chart/chart-trend-lines';
import { IndicatorLayer } from '../chart/indicator-layer';
import { OrderLines } from '../chart/order-lines';
import { ChartOrderLines } from '../chart/chart-order-lines';

export interface ChartSymbol {
  Id: number;
  Code: string;
  PricePrecision: number;
}

function cssColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return /^#[0-9a-f]{6}$/i.test(value) ? value : fallback;
}

/** A pushed bar of the base period folded into the forming bar of a derived period (4H, 1W, 1MN). */
function foldIntoDerived(period: ChartPeriodName, last: KlineBar | undefined, bar: KlineBar): KlineBar | null {
  const derived = derivedPeriod(period);
  if (!derived || bar.Period !== derived.base) return null;
  const time = derivedBarStart(derived.period, bar.Time);
  if (last && time < last.Time) return null;
  if (!last || time > last.Time) return { ...bar, Time: time, Id: time, Period: period };
  // Volume stays as loaded: a push carries its base bar's running volume, not what it adds.
  return {
    ...last,
    High: Number(bar.High) > Number(last.High) ? bar.High : last.High,
    Low: Number(bar.Low) < Number(last.Low) ? bar.Low : last.Low,
    Close: bar.Close,
  };
}

type Status = 'loading' | 'ready' | 'empty' | 'error';

/**
 * Price chart (lightweight-charts, fetched only when this chart mounts): candles, bars or line with
 * volume, indicators, and the trader's orders as lines. Updates live from KLINE.{code}, loads older
 * bars when scrolled back, keeps its scroll position when the symbol or period changes. The chart
 * itself stays left-to-right in mirrored layouts.
 */
export function KlineChart({ symbol, period, className = 'h-72' }: { symbol: ChartSymbol; period: ChartPeriodName; className?: string }) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const api = useRef<ChartApi | null>(null);
  const bars = useRef<KlineBar[]>([]);
  const paging = useRef({ key: '', loadingOlder: false, exhausted: false, loaded: false });
  const loadOlder = useRef<() => void>(() => undefined);
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState<Status>('loading');
  const [attempt, setAttempt] = useState(0);
  const [prefs, setPrefs] = useChartPrefs();
  const [mainVersion, setMainVersion] = useState(0);
  const [legendValues, setLegendValues] = useState<LegendValues>({});
  const [tool, setTool] = useState<DrawingTool | null>(null);
  const prefsRef = useRef(prefs);
  prefsRef.current = prefs;

  const draw = () => {
    const chart = api.current;
    if (!chart) return;
    chart.main.setData(bars.current.map((bar) => toPoint(prefsRef.current.type, bar)));
    chart.volume.setData(bars.current.map((bar) => toVolume(bar, chart.up, chart.down)));
    chart.indicators.update(closesOf(bars.current));
  };

  useEffect(() => {
    let disposed = false;
    import('lightweight-charts')
      .then((lib) => {
        if (disposed || !container.current) return;
        const up = cssColour('--color-up', '#0ecb81');
        const down = cssColour('--color-down', '#ff6b7d');
        const muted = cssColour('--color-muted', '#848e9c');
        const grid = cssColour('--color-border', '#2b3139');
        const accent = cssColour('--color-accent', '#f0b90b');
        const chart = lib.createChart(container.current, {
          autoSize: true,
          layout: {
            background: { color: 'transparent' },
            textColor: muted,
            attributionLogo: true,
            fontSize: 11,
            panes: { separatorColor: grid },
          },
          grid: { vertLines: { color: `${grid}80` }, horzLines: { color: `${grid}80` } },
          rightPriceScale: { borderColor: grid },
          timeScale: { borderColor: grid, timeVisible: true, secondsVisible: false },
          localization: { locale: 'en-US' },
        });
        const main = addMainSeries(lib, chart, prefsRef.current.type, { up, down, accent });
        const volume = chart.addSeries(lib.HistogramSeries, {
          priceFormat: { type: 'volume' },
          priceScaleId: '',
          lastValueVisible: false,
          priceLineVisible: false,
        });
        volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
        main.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } });
        chart.timeScale().subscribeVisibleLogicalRangeChange((range: LogicalRange | null) => {
          if (range && range.from < 10) loadOlder.current();
        });
        const indicators = new IndicatorLayer(lib, chart, up, down);
        indicators.onValues = setLegendValues;
        api.current = { lib, chart, main, volume, indicators, lines: new OrderLines(main), up, down, accent };
        // Browser tests only (an automated browser: navigator.webdriver): the price scale's visible range
        // and the range of the bars in view, read from the chart element. Read-only.
        if (navigator.webdriver) {
          (container.current as HTMLDivElement & { priceRanges?: () => unknown }).priceRanges = () => {
            const current = api.current;
            const time = current?.chart.timeScale().getVisibleRange();
            if (!current || !time) return null;
            const shown = bars.current.filter((b) => b.Time / 1000 >= Number(time.from) && b.Time / 1000 <= Number(time.to));
            return {
              visible: current.main.priceScale().getVisibleRange(),
              bars: shown.length
                ? { from: Math.min(...shown.map((b) => Number(b.Low))), to: Math.max(...shown.map((b) => Number(b.High))) }
                : null,
            };
          };
          // The titles handed to the chart for the order lines (it draws them on a canvas).
          (container.current as HTMLDivElement & { orderLineTitles?: () => string[] }).orderLineTitles = () =>
            api.current?.lines.all().map((l) => l.line.options().title) ?? [];
          // Where the trend lines were last drawn on the canvas, in the chart's pixels.
          (container.current as HTMLDivElement & { trendSegments?: () => unknown }).trendSegments = () => api.current?.trends?.drawn ?? [];
        }
        setReady(true);
      })
      .catch(() => setStatus('error'));
    return () => {
      disposed = true;
      api.current?.chart.remove();
      api.current = null;
      setReady(false);
    };
  }, []);

  // Chart type: the price series is replaced; its order lines are drawn again on the new one.
  useEffect(() => {
    const chart = api.current;
    if (!ready || !chart) return;
    const type = prefs.type;
    chart.lines.clear();
    const precision = chart.main.options().priceFormat;
    chart.chart.removeSeries(chart.main);
    chart.main = addMainSeries(chart.lib, chart.chart, type, {
      up: chart.up,
      down: chart.down,
      accent: chart.accent,
    });
    chart.main.applyOptions({ priceFormat: precision });
    chart.main.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } });
    chart.main.setData(bars.current.map((bar) => toPoint(type, bar)));
    setMainVersion((n) => n + 1);
  }, [ready, prefs.type]);

  useEffect(() => {
    const chart = api.current;
    if (!ready || !chart) return;
    chart.indicators.setParams(prefs.params, closesOf(bars.current));
    chart.indicators.setActive(prefs.indicators, closesOf(bars.current));
  }, [ready, prefs.indicators, prefs.params]);

  useEffect(() => {
    const chart = api.current;
    if (!ready || !chart) return;
    const key = `${symbol.Id}|${period}`;
    const state = paging.current;
    // Keep the distance from the newest bar the user scrolled to when switching symbol or period.
    const position = state.loaded ? chart.chart.timeScale().scrollPosition() : null;
    state.key = key;
    state.exhausted = false;
    state.loadingOlder = false;
    setStatus('loading');
    const controller = new AbortController();
    const minMove = 10 ** -symbol.PricePrecision;
    chart.main.applyOptions({ priceFormat: { type: 'price', precision: symbol.PricePrecision, minMove } });

    getKline({ forexId: symbol.Id, period }, controller.signal)
      .then((data) => {
        if (state.key !== key) return;
        bars.current = data;
        state.exhausted = data.length < KLINE_PAGE;
        draw();
        if (position !== null) chart.chart.timeScale().scrollToPosition(position, false);
        state.loaded = true;
        setStatus(data.length ? 'ready' : 'empty');
      })
      .catch(() => {
        if (!controller.signal.aborted) setStatus('error');
      });

    loadOlder.current = () => {
      const first = bars.current[0];
      if (!first || state.loadingOlder || state.exhausted || state.key !== key) return;
      state.loadingOlder = true;
      getKline({ forexId: symbol.Id, period, before: first.Time }, controller.signal)
        .then((older) => {
          if (state.key !== key) return;
          if (older.length < KLINE_PAGE) state.exhausted = true;
          const fresh = older.filter((bar) => bar.Time < first.Time);
          if (fresh.length === 0) {
            state.exhausted = true;
            return;
          }
          bars.current = [...fresh, ...bars.current];
          draw();
        })
        .catch(() => undefined)
        .finally(() => {
          if (state.key === key) state.loadingOlder = false;
        });
    };
    return () => controller.abort();
  }, [ready, symbol.Id, symbol.PricePrecision, period, attempt]);

  useSocketTopic(`KLINE.${symbol.Code}`, (message) => {
    const pushed = message.kline;
    const chart = api.current;
    if (!chart || pushed.ForexId !== symbol.Id || status !== 'ready') return;
    const list = bars.current;
    const last = list[list.length - 1];
    const bar = pushed.Period === period ? pushed : foldIntoDerived(period, last, pushed);
    if (!bar || (last && bar.Time < last.Time)) return;
    if (last && bar.Time === last.Time) list[list.length - 1] = bar;
    else list.push(bar);
    chart.main.update(toPoint(prefsRef.current.type, bar));
    chart.volume.update(toVolume(bar, chart.up, chart.down));
    if (prefsRef.current.indicators.length) chart.indicators.update(closesOf(list));
  });

  return (
    <div className={`flex flex-col ${className}`}>
      <ChartToolbar prefs={prefs} onChange={setPrefs} tool={tool} onTool={setTool} />
      <div className="relative min-h-0 flex-1 overflow-hidden" dir="ltr" role="group" aria-label={t('trade.chart_label')}>
        <div ref={container} className="absolute inset-0" data-testid="kline-chart" data-chart-type={prefs.type} />
        {ready && (
          <div className="pointer-events-none absolute start-1 top-1 z-10 flex flex-col items-start gap-0.5">
            {status === 'ready' && (
              <ChartLegends
                active={prefs.indicators}
                params={prefs.params}
                values={legendValues}
                precision={symbol.PricePrecision}
                onParams={(params) => setPrefs({ ...prefsRef.current, params })}
              />
            )}
            <ChartDrawings
              api={api}
              prices={prefs.lines[symbol.Code] ?? []}
              precision={symbol.PricePrecision}
              mainVersion={mainVersion}
              drawing={tool === 'hline'}
              onPrices={(prices, stillDrawing) => {
                setPrefs({ ...prefsRef.current, lines: { ...prefsRef.current.lines, [symbol.Code]: prices } });
                setTool(stillDrawing ? 'hline' : null);
              }}
            />
            <ChartTrendLines
              api={api}
              lines={prefs.trends[symbol.Code] ?? []}
              precision={symbol.PricePrecision}
              mainVersion={mainVersion}
              drawing={tool === 'trend'}
              onLines={(lines, stillDrawing) => {
                setPrefs({ ...prefsRef.current, trends: { ...prefsRef.current.trends, [symbol.Code]: lines } });
                setTool(stillDrawing ? 'trend' : null);
              }}
            />
          </div>
        )}
        {ready && (
          <ChartOrderLines
            api={api}
            container={container}
            symbolId={symbol.Id}
            precision={symbol.PricePrecision}
            mainVersion={mainVersion}
          />
        )}
        {status === 'loading' && (
          <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
            <Spinner />
          </div>
        )}
        {status === 'empty' && (
          <p className="absolute inset-0 flex items-center justify-center text-sm text-muted">{t('messages.no_data')}</p>
        )}
        {status === 'error' && (
          <div role="alert" className="absolute inset-0 flex flex-col items-center justify-center gap-3 text-sm text-muted">
            <p>{t('errors.load_failed')}</p>
            <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
              {t('common.retry')}
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
