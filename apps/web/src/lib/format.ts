import { BALANCE_DECIMALS, PROFIT_DECIMALS } from '@tp/contract/constants';
import { currentLocale } from './i18n';

const PLACEHOLDER = '--';
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, decimals: number, grouping: boolean): Intl.NumberFormat {
  const key = `${locale}|${decimals}|${grouping}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      useGrouping: grouping,
    });
    numberFormats.set(key, format);
  }
  return format;
}

export interface NumberFormatOptions {
  locale?: string;
  grouping?: boolean;
}

/**
 * Formats an amount to a fixed number of decimals in the current language's locale.
 * Decimal strings are passed to Intl as strings, so money keeps its exact digits.
 */
export function formatNumber(value: string | number | null | undefined, decimals: number, options: NumberFormatOptions = {}): string {
  if (value === null || value === undefined || value === '') return PLACEHOLDER;
  const text = typeof value === 'number' ? value : value.trim();
  if (typeof text === 'number' ? !Number.isFinite(text) : !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) {
    return PLACEHOLDER;
  }
  const format = numberFormat(options.locale ?? currentLocale(), decimals, options.grouping ?? true);
  return format.format(text as number | Intl.StringNumericLiteral);
}

export const formatMoney = (value: string | number | null | undefined, options?: NumberFormatOptions): string =>
  formatNumber(value, BALANCE_DECIMALS, options);

export const formatProfit = (value: string | number | null | undefined, options?: NumberFormatOptions): string =>
  formatNumber(value, PROFIT_DECIMALS, options);

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
