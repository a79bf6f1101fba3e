import { type IndicatorName, type IndicatorParams, paramValues } from './indicators';

export const ABBREVIATION: Record<IndicatorName, string> = { sma: 'SMA', ema: 'EMA', bb: 'BB', rsi: 'RSI', macd: 'MACD' };

/** The lines whose newest values a legend shows, in the order shown. */
export const LEGEND_LINES: Record<IndicatorName, string[]> = {
  sma: ['sma'],
  ema: ['ema'],
  bb: ['upper', 'middle', 'lower'],
  rsi: ['rsi'],
  macd: ['macd', 'signal', 'histogram'],
};

/** An indicator's name with its parameters: "SMA 20", "BB 20, 2", "MACD 12, 26, 9". */
export function legendName(name: IndicatorName, params: IndicatorParams, format: (value: number) => string = String): string {
  return `${ABBREVIATION[name]} ${paramValues(name, params).map(format).join(', ')}`;
}
