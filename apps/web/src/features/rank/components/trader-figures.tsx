import { formatMoney, formatPercent } from '../../../lib/format';

/** Up, down or flat colour of a signed decimal string. */
export function toneOf(value: string): string {
  const text = value.trim();
  if (text.startsWith('-')) return 'text-down';
  return /[1-9]/.test(text) ? 'text-up' : 'text-text';
}

/** A percent figure (two decimals, as the server sends it) with its sign colour. */
export function Percent({ value, signed = true, className = '' }: { value: string; signed?: boolean; className?: string }) {
  return (
    <span dir="ltr" className={`tabular-nums ${signed ? toneOf(value) : ''} ${className}`}>
      {formatPercent(value)}
    </span>
  );
}

/** Income (sum of profits) as money: the spec's six decimals are for the order screen only. */
export function Income({ value, className = '' }: { value: string; className?: string }) {
  return (
    <span dir="ltr" className={`tabular-nums ${toneOf(value)} ${className}`}>
      {formatMoney(value)}
    </span>
  );
}

/** The initial shown in a trader's round badge. */
export const initialOf = (user: string) => Array.from(user.trim())[0]?.toUpperCase() ?? '?';
