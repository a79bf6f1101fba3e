import { useState } from 'react';
import { useSessionStore } from '../../../lib/session-store';
import { DEFAULT_PARAMS, INDICATORS, type IndicatorName, type IndicatorParams, sanitiseParams } from './indicators';

export const CHART_TYPES = ['candles', 'bars', 'line'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export interface ChartPrefs {
  type: ChartType;
  indicators: IndicatorName[];
  /** Each indicator's parameters (the defaults until the trader edits them in its legend). */
  params: IndicatorParams;
  /** Horizontal lines the trader drew, by symbol code: their prices. */
  lines: Record<string, number[]>;
}

const DEFAULTS: ChartPrefs = { type: 'candles', indicators: [], params: DEFAULT_PARAMS, lines: {} };

function sanitiseLines(raw: unknown): Record<string, number[]> {
  if (!raw || typeof raw !== 'object') return {};
  const out: Record<string, number[]> = {};
  for (const [code, prices] of Object.entries(raw as Record<string, unknown>)) {
    const kept = Array.isArray(prices) ? prices.filter((p): p is number => typeof p === 'number' && Number.isFinite(p)) : [];
    if (kept.length) out[code] = kept;
  }
  return out;
}

/** What is stored: the parameters only once one differs from its default, drawn lines only once there are some. */
export function storedChartPrefs(prefs: ChartPrefs): object {
  const edited = JSON.stringify(prefs.params) !== JSON.stringify(DEFAULT_PARAMS);
  const lines = sanitiseLines(prefs.lines);
  return {
    type: prefs.type,
    indicators: prefs.indicators,
    ...(edited ? { params: prefs.params } : {}),
    ...(Object.keys(lines).length ? { lines } : {}),
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
