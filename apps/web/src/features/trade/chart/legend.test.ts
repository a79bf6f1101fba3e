import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS, paramProblem, sanitiseParams } from './indicators';
import { legendName } from './legend';

describe('indicator legends and parameters', () => {
  it('names each indicator with its parameters', () => {
    expect(legendName('sma', DEFAULT_PARAMS)).toBe('SMA 20');
    expect(legendName('ema', DEFAULT_PARAMS)).toBe('EMA 50');
    expect(legendName('bb', DEFAULT_PARAMS)).toBe('BB 20, 2');
    expect(legendName('rsi', DEFAULT_PARAMS)).toBe('RSI 14');
    expect(legendName('macd', DEFAULT_PARAMS)).toBe('MACD 12, 26, 9');
    expect(legendName('bb', { ...DEFAULT_PARAMS, bb: { period: 30, deviation: 2.5 } })).toBe('BB 30, 2.5');
  });

  it('takes whole periods from 1 to 500 and deviations from 0.5 to 5', () => {
    for (const ok of ['1', '20', '500', ' 50 ']) expect(paramProblem('period', ok)).toBeNull();
    for (const bad of ['0', '501', '2.5', '-3', '', 'abc', '1e2']) expect(paramProblem('period', bad)).toBe('period');
    for (const ok of ['0.5', '2', '2.25', '5']) expect(paramProblem('deviation', ok)).toBeNull();
    for (const bad of ['0.4', '5.1', '', '-2', 'x']) expect(paramProblem('deviation', bad)).toBe('deviation');
    expect(paramProblem('fast', '12')).toBeNull();
    expect(paramProblem('signal', '0')).toBe('period');
  });

  it('falls back to the default of every stored parameter that is missing or out of range', () => {
    expect(sanitiseParams(undefined)).toEqual(DEFAULT_PARAMS);
    expect(sanitiseParams({ sma: { period: 50 }, bb: { period: 0, deviation: 3 }, macd: { fast: 'x' } })).toEqual({
      ...DEFAULT_PARAMS,
      sma: { period: 50 },
      bb: { period: 20, deviation: 3 },
    });
  });
});
