import {
  type FormatOptions,
  PLACEHOLDER,
  formatAmount,
  formatDecimal,
  formatOrderProfit,
  formatPercentOf,
  formatPointsOf,
} from '@tp/contract/number-format';
import { currentLocale } from './i18n';

/** The web app's number formats: the contract's one module (shared with the server's messages), in the current language. */
export interface NumberFormatOptions extends FormatOptions {
  locale?: string;
}

/**
 * Keeps a signed figure left-to-right inside a translated sentence, so its minus sign stays in front
 * in Arabic (the Arabic letter mark Intl puts before the sign would pull it to the right).
 */
export const isolateLtr = (value: string) => `\u2066${value.replace(/[\u061c\u200e\u200f]/g, '')}\u2069`;

/** A number with `decimals` places in the current language. */
export function formatNumber(value: string | number | null | undefined, decimals: number, options: NumberFormatOptions = {}): string {
  return formatDecimal(value, decimals, options.locale ?? currentLocale(), options);
}

/** Money: 2 decimals, grouped. */
export const formatMoney = (value: string | number | null | undefined, options: NumberFormatOptions = {}): string =>
  formatAmount(value, options.locale ?? currentLocale(), options);

/** The order screen's profit (positions and history lists), to the spec's 6 decimals; money everywhere else. */
export const formatProfit = (value: string | number | null | undefined, options: NumberFormatOptions = {}): string =>
  formatOrderProfit(value, options.locale ?? currentLocale(), options);

/** A price at its symbol's precision, grouped. */
export const formatPrice = (value: string | number | null | undefined, precision: number, options: NumberFormatOptions = {}): string =>
  formatDecimal(value, precision, options.locale ?? currentLocale(), options);

/** A percentage with 2 decimals. */
export const formatPercent = (value: string | number | null | undefined, options: NumberFormatOptions = {}): string =>
  formatPercentOf(value, options.locale ?? currentLocale(), options);

/** A price distance in the symbol's points. */
export const formatPoints = (distance: string | number | null | undefined, precision: number, locale: string = currentLocale()): string =>
  formatPointsOf(distance, precision, locale);

/** Date and time from epoch milliseconds, a numeric string of them, or an ISO string. */
export function formatDateTime(value: number | string | null | undefined, locale: string = currentLocale()): string {
  if (value === null || value === undefined || value === '') return PLACEHOLDER;
  const date = typeof value === 'number' || /^\d+$/.test(value) ? new Date(Number(value)) : new Date(value);
  if (Number.isNaN(date.getTime())) return PLACEHOLDER;
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}
