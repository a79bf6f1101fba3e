import type { StatementBounds } from '../api/get-statement';

/** A statement's dates as the trader picks them: local calendar days "YYYY-MM-DD", both included. */
export interface DateRange {
  from: string;
  to: string;
}

export const PRESETS = ['this_month', 'last_month', 'last_3_months', 'this_year'] as const;
export type Preset = (typeof PRESETS)[number];

/** The server's longest statement. */
export const MAX_DAYS = 366;

const pad = (n: number) => String(n).padStart(2, '0');

/** A local date as "YYYY-MM-DD". */
export const isoDate = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** "YYYY-MM-DD" as that day's local midnight, or null when it is not a real date. */
export function parseDate(value: string | null | undefined): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const date = new Date(y, mo, d);
  return date.getFullYear() === y && date.getMonth() === mo && date.getDate() === d ? date : null;
}

/** The range of a preset on `today`'s calendar (months to date end today). */
export function presetRange(preset: Preset, today: Date = new Date()): DateRange {
  const y = today.getFullYear();
  const m = today.getMonth();
  switch (preset) {
    case 'this_month':
      return { from: isoDate(new Date(y, m, 1)), to: isoDate(today) };
    case 'last_month':
      return { from: isoDate(new Date(y, m - 1, 1)), to: isoDate(new Date(y, m, 0)) };
    case 'last_3_months':
      return { from: isoDate(new Date(y, m - 2, 1)), to: isoDate(today) };
    case 'this_year':
      return { from: isoDate(new Date(y, 0, 1)), to: isoDate(today) };
  }
}

/** The preset a range is, if any. */
export const presetOf = (range: DateRange, today: Date = new Date()): Preset | null =>
  PRESETS.find((p) => {
    const r = presetRange(p, today);
    return r.from === range.from && r.to === range.to;
  }) ?? null;

export type RangeCheck = { ok: true; bounds: StatementBounds; days: number } | { ok: false; error: 'range_invalid' | 'range_too_long' };

/** The server's bounds for a range: from the first day's local midnight to the midnight after the last day. */
export function rangeBounds(range: DateRange): RangeCheck {
  const from = parseDate(range.from);
  const to = parseDate(range.to);
  if (!from || !to) return { ok: false, error: 'range_invalid' };
  const after = new Date(to.getFullYear(), to.getMonth(), to.getDate() + 1);
  const days = Math.round((after.getTime() - from.getTime()) / 86_400_000);
  if (days <= 0) return { ok: false, error: 'range_invalid' };
  if (days > MAX_DAYS) return { ok: false, error: 'range_too_long' };
  return { ok: true, days, bounds: { start: Math.floor(from.getTime() / 1000), end: Math.floor(after.getTime() / 1000) } };
}

/** The range in a page's query (?from=&to=), this month when absent or not dates. */
export function rangeFromQuery(params: URLSearchParams, today: Date = new Date()): DateRange {
  const from = params.get('from');
  const to = params.get('to');
  return parseDate(from) && parseDate(to) ? { from: from!, to: to! } : presetRange('this_month', today);
}

/** The query of a range (?from=&to=), shared by the screen and its printable page. */
export const rangeQuery = (range: DateRange) => new URLSearchParams({ from: range.from, to: range.to }).toString();

/** Local time as "YYYY-MM-DD HH:mm:ss": the same in every language (CSV). */
export function isoLocalTime(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  return `${isoDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The browser's offset from UTC now, as "UTC+08:00". */
export function utcOffsetLabel(date: Date = new Date()): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
