import type { PeriodName } from '@tp/contract/constants';
import type { KlineBar } from '@tp/contract/schemas/market';
import type { CandlestickData, HistogramData, IChartApi, ISeriesApi, LogicalRange, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useSocketTopic } from '../../../lib/use-socket';
import { getKline, KLINE_PAGE } from '../api/get-kline';

interface ChartApi {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
  up: string;
  down: string;
}

export interface ChartSymbol {
  Id: number;
  Code: string;
  PricePrecision: number;
}

const toTime = (ms: number) => Math.floor(ms / 1000) as UTCTimestamp;
// The chart library draws with numbers; these values are only pixels, never money.
const toCandle = (bar: KlineBar): CandlestickData => ({
  time: toTime(bar.Time),
  open: Number(bar.Open),
  high: Number(bar.High),
  low: Number(bar.Low),
  close: Number(bar.Close),
});
const toVolume = (bar: KlineBar, api: ChartApi): HistogramData => ({
  time: toTime(bar.Time),
  value: Number(bar.Volume),
  color: `${Number(bar.Close) >= Number(bar.Open) ? api.up : api.down}66`,
});

function cssColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return /^#[0-9a-f]{6}$/i.test(value) ? value : fallback;
}

type Status = 'loading' | 'ready' | 'empty' | 'error';

/**
 * Candlestick chart with volume (lightweight-charts, fetched only when this chart mounts). Updates
 * live from KLINE.{code}, loads older bars when scrolled back, keeps its scroll position when the
 * symbol or period changes. The chart itself stays left-to-right in mirrored layouts.
 */
export function KlineChart({ symbol, period, className = 'h-72' }: { symbol: ChartSymbol; period: PeriodName; className?: string }) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const api = useRef<ChartApi | null>(null);
  const bars = useRef<KlineBar[]>([]);
  const paging = useRef({ key: '', loadingOlder: false, exhausted: false, loaded: false });
  const loadOlder = useRef<() => void>(() => undefined);
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState<Status>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let disposed = false;
    import('lightweight-charts')
      .then((lib) => {
        if (disposed || !container.current) return;
        const up = cssColour('--color-up', '#0ecb81');
        const down = cssColour('--color-down', '#f6465d');
        const muted = cssColour('--color-muted', '#848e9c');
        const grid = cssColour('--color-border', '#2b3139');
        const chart = lib.createChart(container.current, {
          autoSize: true,
          layout: { background: { color: 'transparent' }, textColor: muted, attributionLogo: true, fontSize: 11 },
          grid: { vertLines: { color: `${grid}80` }, horzLines: { color: `${grid}80` } },
          rightPriceScale: { borderColor: grid },
          timeScale: { borderColor: grid, timeVisible: true, secondsVisible: false },
          localization: { locale: 'en-US' },
        });
        const candles = chart.addSeries(lib.CandlestickSeries, {
          upColor: up,
          downColor: down,
          wickUpColor: up,
          wickDownColor: down,
          borderVisible: false,
        });
        const volume = chart.addSeries(lib.HistogramSeries, { priceFormat: { type: 'volume' }, priceScaleId: '', lastValueVisible: false, priceLineVisible: false });
        volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
        candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } });
        chart.timeScale().subscribeVisibleLogicalRangeChange((range: LogicalRange | null) => {
          if (range && range.from < 10) loadOlder.current();
        });
        api.current = { chart, candles, volume, up, down };
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
    chart.candles.applyOptions({ priceFormat: { type: 'price', precision: symbol.PricePrecision, minMove } });

    const draw = () => {
      chart.candles.setData(bars.current.map(toCandle));
      chart.volume.setData(bars.current.map((bar) => toVolume(bar, chart)));
    };

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
    const bar = message.kline as KlineBar | undefined;
    const chart = api.current;
    if (!bar || !chart || bar.Period !== period || bar.ForexId !== symbol.Id || status !== 'ready') return;
    const list = bars.current;
    const last = list[list.length - 1];
    if (last && bar.Time < last.Time) return;
    if (last && bar.Time === last.Time) list[list.length - 1] = bar;
    else list.push(bar);
    chart.candles.update(toCandle(bar));
    chart.volume.update(toVolume(bar, chart));
  });

  return (
    <div className={`relative ${className}`} dir="ltr" role="group" aria-label={t('trade.chart_label')}>
      <div ref={container} className="absolute inset-0" data-testid="kline-chart" />
      {status === 'loading' && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <Spinner />
        </div>
      )}
      {status === 'empty' && <p className="absolute inset-0 flex items-center justify-center text-sm text-muted">{t('messages.no_data')}</p>}
      {status === 'error' && (
        <div role="alert" className="absolute inset-0 flex flex-col items-center justify-center gap-3 text-sm text-muted">
          <p>{t('errors.load_failed')}</p>
          <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
            {t('common.retry')}
          </Button>
        </div>
      )}
    </div>
  );
}
