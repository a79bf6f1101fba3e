import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { useAbbreviatedKline } from '../api/get-abbreviated-kline';

const WIDTH = 56;
const HEIGHT = 28;

/** SVG points of a series scaled into the box; an empty string for fewer than two points. */
export function sparklinePoints(values: number[], width = WIDTH, height = HEIGHT): string {
  if (values.length < 2) return '';
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const step = width / (values.length - 1);
  // Display geometry only: prices here are never shown or used as money.
  return values.map((v, i) => `${(i * step).toFixed(1)},${(height - 1 - ((v - min) / span) * (height - 2)).toFixed(1)}`).join(' ');
}

/** Starts a fetch only once the row scrolls into view, so the home screen loads few requests. */
function useInView<T extends Element>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const node = ref.current;
    if (!node || seen) return;
    if (typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [seen]);
  return [ref, seen];
}

/**
 * The small area chart of a market row, drawn as an inline SVG polyline (no chart library). Memoized:
 * a quote tick re-renders its row, not the chart (unless the day's change turns up or down).
 */
export const Sparkline = memo(function Sparkline({ forexId, up }: { forexId: number; up: boolean }) {
  const [ref, inView] = useInView<HTMLSpanElement>();
  const kline = useAbbreviatedKline(forexId, inView);
  const points = useMemo(() => sparklinePoints((kline.data ?? []).map((bar) => Number(bar.Close))), [kline.data]);
  const colour = up ? 'var(--color-up)' : 'var(--color-down)';
  return (
    <span ref={ref} aria-hidden="true" className="inline-block h-7 w-14 shrink-0" dir="ltr">
      {points && (
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} className="block" data-testid="sparkline">
          <polygon points={`0,${HEIGHT} ${points} ${WIDTH},${HEIGHT}`} fill={colour} fillOpacity={0.12} />
          <polyline points={points} fill="none" stroke={colour} strokeWidth={1.4} strokeLinejoin="round" />
        </svg>
      )}
    </span>
  );
});
