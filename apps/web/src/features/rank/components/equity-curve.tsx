import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

function cssColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** The trader's cumulative profit after each closed trade (USD), as an area chart. */
export function EquityCurve({ points }: { points: { time: number; value: string }[] }) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let disposed = false;
    let remove: (() => void) | null = null;
    void import('lightweight-charts').then((lib) => {
      if (disposed || !container.current) return;
      const accent = cssColour('--color-accent', '#f0b90b');
      const muted = cssColour('--color-muted', '#848e9c');
      const grid = cssColour('--color-border', '#2b3139');
      const chart = lib.createChart(container.current, {
        autoSize: true,
        layout: { background: { color: 'transparent' }, textColor: muted, attributionLogo: true, fontSize: 11 },
        grid: { vertLines: { visible: false }, horzLines: { color: `${grid}80` } },
        rightPriceScale: { borderColor: grid },
        timeScale: { borderColor: grid, timeVisible: false },
        localization: { locale: 'en-US' },
        handleScroll: false,
        handleScale: false,
      });
      const series = chart.addSeries(lib.AreaSeries, {
        lineColor: accent,
        topColor: `${accent}55`,
        bottomColor: `${accent}05`,
        lineWidth: 2,
        priceLineVisible: false,
      });
      // One point per second at most: trades closed in the same second keep the last cumulative value.
      const bySecond = new Map<number, number>();
      for (const p of points) bySecond.set(p.time, Number(p.value));
      series.setData([...bySecond].sort((a, b) => a[0] - b[0]).map(([time, value]) => ({ time: time as never, value })));
      chart.timeScale().fitContent();
      remove = () => chart.remove();
    });
    return () => {
      disposed = true;
      remove?.();
    };
  }, [points]);
  if (points.length === 0) return <p className="py-8 text-center text-sm text-muted">{t('rank.no_closed_trades')}</p>;
  // A figure, not role=img: the chart holds its attribution link, which must stay reachable.
  return (
    <figure aria-label={t('rank.equity_curve')} className="m-0">
      <div ref={container} data-testid="equity-curve" className="h-48 w-full" />
    </figure>
  );
}
