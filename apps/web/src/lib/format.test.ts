import { describe, expect, it } from 'vitest';
import { formatDateTime, formatMoney, formatNumber, formatPercent, formatPoints, formatPrice, formatProfit } from './format';

describe('formatNumber', () => {
  it('rounds to the given decimals in the given locale', () => {
    expect(formatNumber('1234.5', 2, { locale: 'en' })).toBe('1,234.50');
    expect(formatNumber(1234.5, 2, { locale: 'de' })).toBe('1.234,50');
    expect(formatNumber('0.1234567', 6, { locale: 'en', grouping: false })).toBe('0.123457');
  });

  it('keeps the exact digits of decimal strings', () => {
    expect(formatNumber('12345678901234.123456', 6, { locale: 'en' })).toBe('12,345,678,901,234.123456');
  });

  it('uses Latin digits for Arabic', () => {
    expect(formatNumber('1234.5', 2, { locale: 'ar-u-nu-latn' })).toMatch(/1.?234.50/);
  });

  it('shows a placeholder for missing or invalid values', () => {
    expect(formatNumber(undefined, 2, { locale: 'en' })).toBe('--');
    expect(formatNumber('', 2, { locale: 'en' })).toBe('--');
    expect(formatNumber('abc', 2, { locale: 'en' })).toBe('--');
    expect(formatNumber(Number.NaN, 2, { locale: 'en' })).toBe('--');
  });
});

describe('formatMoney and formatProfit', () => {
  it('use 2 and 6 decimals', () => {
    expect(formatMoney('100', { locale: 'en' })).toBe('100.00');
    expect(formatProfit('-1.5', { locale: 'en' })).toBe('-1.500000');
  });
});

describe('one number format', () => {
  it('writes money with 2 decimals, grouped, signed when asked (an account log entry)', () => {
    expect(formatMoney('265.188', { locale: 'en', signed: true })).toBe('+265.19');
    expect(formatMoney('-1234.5', { locale: 'en', signed: true })).toBe('-1,234.50');
    expect(formatMoney('0', { locale: 'en', signed: true })).toBe('0.00');
    expect(formatMoney('132926.500000', { locale: 'en' })).toBe('132,926.50');
  });

  it('writes prices at their precision with thousands separators (the phone home list)', () => {
    expect(formatPrice('95010.5', 2, { locale: 'en' })).toBe('95,010.50');
    expect(formatPrice('1.0842', 5, { locale: 'de' })).toBe('1,08420');
  });

  it('writes percentages with 2 decimals and spreads in points', () => {
    expect(formatPercent('12.345', { locale: 'en' })).toBe('12.35%');
    expect(formatPercent('1.5', { locale: 'en', signed: true })).toBe('+1.50%');
    expect(formatPoints('0.0001200000', 5, 'en')).toBe('12');
    expect(formatPoints('0.5', 2, 'en')).toBe('50');
    expect(formatPoints('0.000015', 5, 'en')).toBe('1.5');
  });
});

describe('formatDateTime', () => {
  it('accepts epoch milliseconds, numeric strings and ISO strings', () => {
    const ms = Date.UTC(2024, 0, 2, 3, 4, 5);
    const text = formatDateTime(ms, 'en');
    expect(text).toMatch(/2024/);
    expect(formatDateTime(String(ms), 'en')).toBe(text);
    expect(formatDateTime(new Date(ms).toISOString(), 'en')).toBe(text);
  });

  it('shows a placeholder for invalid dates', () => {
    expect(formatDateTime('not a date', 'en')).toBe('--');
    expect(formatDateTime(null, 'en')).toBe('--');
  });
});
