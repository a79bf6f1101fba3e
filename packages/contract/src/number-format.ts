/**
 * How numbers are written for people, in one place for the web app, the back office and the
 * server's messages: money with 2 decimals, grouped; prices at their symbol's precision; lots as
 * entered; points whole; percentages with 2 decimals. Each language's separators, Latin digits
 * everywhere (the Arabic locale carries `-u-nu-latn`). Decimal strings go to Intl as strings, so
 * money keeps its exact digits up to the rounding of the last shown place.
 */
import { BALANCE_DECIMALS, PROFIT_DECIMALS } from './constants.ts';

export const PLACEHOLDER = '--';
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const formats = new Map<string, Intl.NumberFormat>();

export interface FormatOptions {
  /** Thousands separators (on by default). */
  grouping?: boolean;
  /** A `+` before a positive amount (a change of money, e.g. an account log entry). */
  signed?: boolean;
  /** At least this many decimals, up to `decimals`: trailing zeros beyond it are dropped. */
  minDecimals?: number;
}

function formatOf(locale: string, min: number, max: number, grouping: boolean, signed: boolean): Intl.NumberFormat {
  const key = `${locale}|${min}|${max}|${grouping}|${signed}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: min,
      maximumFractionDigits: max,
      useGrouping: grouping,
      signDisplay: signed ? 'exceptZero' : 'auto',
    });
    formats.set(key, format);
  }
  return format;
}

/** A number with `decimals` places in `locale`; the placeholder for a missing or non-numeric value. */
export function formatDecimal(
  value: string | number | null | undefined,
  decimals: number,
  locale: string,
  options: FormatOptions = {},
): string {
  if (value === null || value === undefined || value === '') return PLACEHOLDER;
  const text = typeof value === 'number' ? value : value.trim();
  if (typeof text === 'number' ? !Number.isFinite(text) : !DECIMAL.test(text)) return PLACEHOLDER;
  const min = Math.min(options.minDecimals ?? decimals, decimals);
  return formatOf(locale, min, decimals, options.grouping ?? true, options.signed ?? false).format(
    text as number | Intl.StringNumericLiteral,
  );
}

/** Money: balances, margin, fees, swaps, deposits and withdrawals, closed results outside the order screen. */
export const formatAmount = (value: string | number | null | undefined, locale: string, options?: FormatOptions): string =>
  formatDecimal(value, BALANCE_DECIMALS, locale, options);

/** The order screen's profit, to the spec's 6 decimals (only there). */
export const formatOrderProfit = (value: string | number | null | undefined, locale: string, options?: FormatOptions): string =>
  formatDecimal(value, PROFIT_DECIMALS, locale, options);

/** A price at its symbol's precision. */
export const formatPriceAt = (
  value: string | number | null | undefined,
  precision: number,
  locale: string,
  options?: FormatOptions,
): string => formatDecimal(value, precision, locale, options);

/** A percentage (margin level, change, rates) with 2 decimals and the sign `%`. */
export function formatPercentOf(value: string | number | null | undefined, locale: string, options?: FormatOptions): string {
  const text = formatDecimal(value, 2, locale, options);
  return text === PLACEHOLDER ? text : `${text}%`;
}

/**
 * A distance in points (the symbol's smallest price step): `0.00012` at precision 5 is 12 points.
 * Whole points, or one decimal when the distance is finer than a point.
 */
export function pointsOf(distance: string | number, precision: number): number {
  return Number(distance) * 10 ** precision;
}

export function formatPointsOf(distance: string | number | null | undefined, precision: number, locale: string): string {
  if (distance === null || distance === undefined || distance === '' || !DECIMAL.test(String(distance).trim())) return PLACEHOLDER;
  const points = Math.round(pointsOf(distance, precision) * 10) / 10;
  return formatDecimal(points, Number.isInteger(points) ? 0 : 1, locale);
}
