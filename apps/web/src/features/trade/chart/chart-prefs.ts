import { useState } from 'react';
import { useSessionStore } from '../../../lib/session-store';
import { DEFAULT_PARAMS, INDICATORS, type IndicatorName, type IndicatorParams, sanitiseParams } from './indicators';
import type { TrendLine, TrendPoint } from './trend-lines';

export const CHART_TYPES = ['candles', 'bars', 'line'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export interface ChartPrefs {
  type: ChartType;
  indicators: IndicatorName[];
  /** Each indicator's parameters (the defaults until the trader edits them in its legend). */
  params: IndicatorParams;
  /** Horizontal lines the trader drew, by symbol code: their prices. */
  lines: Record<string, number[]>;
  /** Trend lines the trader drew, by symbol code: their two points each. */
  trends: Record<string, TrendLine[]>;
}

const DEFAULTS: ChartPrefs = { type: 'candles', indicators: [], params: DEFAULT_PARAMS, lines: {}, trends: {} };

function sanitiseLines(raw: unknown): Record<string, number[]> {
  if (!raw || typeof raw !== 'object') return {};
  const out: Record<string, number[]> = {};
  for (const [code, prices] of Object.entries(raw as Record<string, unknown>)) {
    const kept = Array.isArray(prices) ? prices.filter((p): p is number => typeof p === 'number' && Number.isFinite(p)) : [];
    if (kept.length) out[code] = kept;
  }
  return out;
}

const isPoint = (p: unknown): p is TrendPoint =>
  !!p && typeof p === 'object' && Number.isFinite((p as TrendPoint).time) && Number.isFinite((p as TrendPoint).price);

function sanitiseTrends(raw: unknown): Record<string, TrendLine[]> {
  if (!raw || typeof raw !== 'object') return {};
  const out: Record<string, TrendLine[]> = {};
  for (const [code, lines] of Object.entries(raw as Record<string, unknown>)) {
    const kept = Array.isArray(lines)
      ? lines
          .filter((l): l is TrendLine => !!l && typeof l === 'object' && isPoint(l.from) && isPoint(l.to))
          .map(({ from, to }) => ({ from: { time: from.time, price: from.price }, to: { time: to.time, price: to.price } }))
      : [];
    if (kept.length) out[code] = kept;
  }
  return out;
}

/** What is stored: the parameters only once one differs from its default, drawn lines only once there are some. */
export function storedChartPrefs(prefs: ChartPrefs): object {
  const edited = JSON.stringify(prefs.params) !== JSON.stringify(DEFAULT_PARAMS);
  const lines = sanitiseLines(prefs.lines);
  const trends = sanitiseTrends(prefs.trends);
  return {
    type: prefs.type,
    indicators: prefs.indicators,
    ...(edited ? { params: prefs.params } : {}),
    ...(Object.keys(lines).length ? { lines } : {}),
    ...(Object.keys(trends).length ? { trends } : {}),
  };
}

/** Stored per user id on this browser ("guest" before login). */
export const chartPrefsKey = (userId: number | undefined) => `chart-prefs:${userId ?? 'guest'}`;

export function readChartPrefs(key: string): ChartPrefs {
  try {
    const raw = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<ChartPrefs> | null;
    if (!raw) return DEFAULTS;
    return {
      type: CHART_TYPES.includes(raw.type as ChartType) ? (raw.type as ChartType) : DEFAULTS.type,
      indicators: Array.isArray(raw.indicators) ? INDICATORS.filter((name) => raw.indicators!.includes(name)) : [],
      params: sanitiseParams(raw.params),
      lines: sanitiseLines(raw.lines),
      trends: sanitiseTrends(raw.trends),
    };
  } catch {
    return DEFAULTS;
  }
}

/** The chart type and indicators the user chose, remembered per user. */
export function useChartPrefs(): [ChartPrefs, (next: ChartPrefs) => void] {
  const userId = useSessionStore((s) => s.user?.id);
  const key = chartPrefsKey(userId);
  const [state, setState] = useState(() => ({ key, prefs: readChartPrefs(key) }));
  // Another user logged in: read theirs.
  const prefs = state.key === key ? state.prefs : readChartPrefs(key);
  if (state.key !== key) setState({ key, prefs });
  const save = (next: ChartPrefs) => {
    setState({ key, prefs: next });
    try {
      localStorage.setItem(key, JSON.stringify(storedChartPrefs(next)));
    } catch {
      // Without storage the choice lasts for this visit only.
    }
  };
  return [prefs, save];
}
