import { Decimal } from 'decimal.js';

/** One Decimal configuration for all money and price arithmetic: half-even (TRADING-RULES.md). */
export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
export type Dec = InstanceType<typeof D>;
export type DecInput = Dec | string | number;

export const dec = (v: DecInput): Dec => new D(v);
export const ZERO = new D(0);

/** Money kept to 6 decimals, half-even. */
export const money = (v: DecInput): Dec => new D(v).toDecimalPlaces(6, D.ROUND_HALF_EVEN);
export const moneyStr = (v: DecInput): string => money(v).toFixed(6);

const PLAIN_DECIMAL = /^\d{1,18}(\.\d{1,18})?$/;

/** Whole digits an entered amount may have: lots are NUMERIC(18,6) and balances NUMERIC(24,6), which must hold sums of amounts too. */
export const AMOUNT_MAX_DIGITS = 12;

export type ParsedAmount = { ok: true; value: Dec } | { ok: false; reason: 'format' | 'decimals' | 'negative' | 'zero' | 'too_large' };

/**
 * Parses a user-entered amount strictly: plain digits with an optional fraction only.
 * Refuses signs, exponents, NaN, Infinity, blanks, more fraction digits than `maxDecimals` and more than AMOUNT_MAX_DIGITS whole digits.
 */
export function parseAmount(raw: unknown, maxDecimals: number, opts: { allowZero?: boolean } = {}): ParsedAmount {
  if (typeof raw === 'number') raw = Number.isFinite(raw) ? String(raw) : 'x';
  if (typeof raw !== 'string') return { ok: false, reason: 'format' };
  const s = raw.trim();
  if (s.startsWith('-') && PLAIN_DECIMAL.test(s.slice(1))) return { ok: false, reason: 'negative' };
  if (!PLAIN_DECIMAL.test(s)) return { ok: false, reason: 'format' };
  const fraction = s.split('.')[1] ?? '';
  if (fraction.replace(/0+$/, '').length > maxDecimals) return { ok: false, reason: 'decimals' };
  const value = new D(s);
  if (value.gte(new D(10).pow(AMOUNT_MAX_DIGITS))) return { ok: false, reason: 'too_large' };
  if (value.isZero() && !opts.allowZero) return { ok: false, reason: 'zero' };
  return { ok: true, value };
}

/** A decimal as a string with exactly `places` decimals (half-even): the one place money is formatted. */
export const fixed = (v: DecInput, places: number): string => new D(v).toFixed(places, D.ROUND_HALF_EVEN);
