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

export const SETTINGS = { sma: 20, ema: 50, bb: 20, rsi: 14, macd: { fast: 12, slow: 26, signal: 9 } } as const;

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

export function computeIndicator<N extends IndicatorName>(name: N, data: Closes): IndicatorLinesOf[N] {
  return computeLines(name, data) as IndicatorLinesOf[N];
}

function computeLines(name: IndicatorName, { times, closes }: Closes): IndicatorLinesOf[IndicatorName] {
  switch (name) {
    case 'sma':
      return { sma: line(times, sma(closes, { period: SETTINGS.sma }), SETTINGS.sma - 1) };
    case 'ema':
      return { ema: line(times, ema(closes, { period: SETTINGS.ema }), SETTINGS.ema - 1) };
    case 'bb': {
      const bands = bollingerBands(closes, { period: SETTINGS.bb });
      const warm = SETTINGS.bb - 1;
      return { upper: line(times, bands.upper, warm), middle: line(times, bands.middle, warm), lower: line(times, bands.lower, warm) };
    }
    case 'rsi':
      return { rsi: line(times, rsi(closes, { period: SETTINGS.rsi }), SETTINGS.rsi) };
    case 'macd': {
      const { fast, slow, signal } = SETTINGS.macd;
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
