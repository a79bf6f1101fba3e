import { bollingerBands, ema, macd, rsi, sma } from 'indicatorts';

/** A point of an indicator line at a bar's time (seconds, as the chart takes it). */
export interface IndicatorPoint {
  time: number;
  value: number;
}

export const INDICATORS = ['sma', 'ema', 'bb', 'rsi', 'macd'] as const;
export type IndicatorName = (typeof INDICATORS)[number];
/** Overlays share the price pane; oscillators get a pane each. */
export const OVERLAYS: readonly IndicatorName[] = ['sma', 'ema', 'bb'];

/** Each indicator's parameters: periods in bars, the Bollinger width in standard deviations. */
export interface IndicatorParamsOf {
  sma: { period: number };
  ema: { period: number };
  bb: { period: number; deviation: number };
  rsi: { period: number };
  macd: { fast: number; slow: number; signal: number };
}
export type IndicatorParams = { [N in IndicatorName]: IndicatorParamsOf[N] };

export const DEFAULT_PARAMS: IndicatorParams = {
  sma: { period: 20 },
  ema: { period: 50 },
  bb: { period: 20, deviation: 2 },
  rsi: { period: 14 },
  macd: { fast: 12, slow: 26, signal: 9 },
};

export const PERIOD_RANGE = { min: 1, max: 500 } as const;
export const DEVIATION_RANGE = { min: 0.5, max: 5 } as const;

/** Why a typed parameter is refused ('period': not a whole number 1–500, 'deviation': not 0.5–5), or null. */
export function paramProblem(key: string, text: string): 'period' | 'deviation' | null {
  const trimmed = text.trim();
  if (key === 'deviation') {
    const value = Number(trimmed);
    return /^\d+(\.\d+)?$/.test(trimmed) && value >= DEVIATION_RANGE.min && value <= DEVIATION_RANGE.max ? null : 'deviation';
  }
  const value = Number(trimmed);
  return /^\d+$/.test(trimmed) && value >= PERIOD_RANGE.min && value <= PERIOD_RANGE.max ? null : 'period';
}

/** Stored parameters checked one by one: a missing or invalid one falls back to its default. */
export function sanitiseParams(raw: unknown): IndicatorParams {
  const source = (raw && typeof raw === 'object' ? raw : {}) as Record<string, Record<string, unknown> | undefined>;
  const out = {} as Record<IndicatorName, Record<string, number>>;
  for (const name of INDICATORS) {
    const given = source[name] && typeof source[name] === 'object' ? source[name] : {};
    const defaults = DEFAULT_PARAMS[name] as unknown as Record<string, number>;
    out[name] = Object.fromEntries(
      Object.entries(defaults).map(([key, fallback]) => {
        const value = given[key];
        return [key, typeof value === 'number' && paramProblem(key, String(value)) === null ? value : fallback];
      }),
    );
  }
  return out as unknown as IndicatorParams;
}

/** The parameters in order, as the legend shows them ("20, 2"). */
export const paramValues = (name: IndicatorName, params: IndicatorParams): number[] => Object.values(params[name]) as number[];

/** The named lines of each indicator. */
export interface IndicatorLinesOf {
  sma: { sma: IndicatorPoint[] };
  ema: { ema: IndicatorPoint[] };
  bb: { upper: IndicatorPoint[]; middle: IndicatorPoint[]; lower: IndicatorPoint[] };
  rsi: { rsi: IndicatorPoint[] };
  macd: { macd: IndicatorPoint[]; signal: IndicatorPoint[]; histogram: IndicatorPoint[] };
}

export interface Closes {
  times: number[];
  closes: number[];
}

// The library answers one value per input, the first ones computed from too few bars: they are left out.
const line = (times: number[], values: number[], warmUp: number): IndicatorPoint[] => {
  const out: IndicatorPoint[] = [];
  for (let i = warmUp; i < values.length; i++) if (Number.isFinite(values[i])) out.push({ time: times[i]!, value: values[i]! });
  return out;
};

export function computeIndicator<N extends IndicatorName>(
  name: N,
  data: Closes,
  params: IndicatorParams = DEFAULT_PARAMS,
): IndicatorLinesOf[N] {
  return computeLines(name, data, params) as IndicatorLinesOf[N];
}

function computeLines(name: IndicatorName, { times, closes }: Closes, params: IndicatorParams): IndicatorLinesOf[IndicatorName] {
  switch (name) {
    case 'sma': {
      const { period } = params.sma;
      return { sma: line(times, sma(closes, { period }), period - 1) };
    }
    case 'ema': {
      const { period } = params.ema;
      return { ema: line(times, ema(closes, { period }), period - 1) };
    }
    case 'bb': {
      const { period } = params.bb;
      // The library's bands are two standard deviations wide: other widths are drawn from its middle and that width.
      const bands = bollingerBands(closes, { period });
      const scale = params.bb.deviation / 2;
      const upper = bands.upper.map((u, i) => bands.middle[i]! + (u - bands.middle[i]!) * scale);
      const lower = bands.lower.map((l, i) => bands.middle[i]! - (bands.middle[i]! - l) * scale);
      const warm = period - 1;
      return { upper: line(times, upper, warm), middle: line(times, bands.middle, warm), lower: line(times, lower, warm) };
    }
    case 'rsi': {
      const { period } = params.rsi;
      return { rsi: line(times, rsi(closes, { period }), period) };
    }
    case 'macd': {
      const { fast, slow, signal } = params.macd;
      const result = macd(closes, { fast, slow, signal });
      const hist = result.macdLine.map((v, i) => v - result.signalLine[i]!);
      return {
        macd: line(times, result.macdLine, slow - 1),
        signal: line(times, result.signalLine, slow + signal - 2),
        histogram: line(times, hist, slow + signal - 2),
      };
    }
  }
}
