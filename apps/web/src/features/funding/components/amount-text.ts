import { formatNumber } from '../../../lib/format';

/** An exact decimal amount with its significant decimals (at least 2), formatted for the locale. */
export function formatAmount(value: string | null | undefined): string {
  const text = (value ?? '').trim();
  const fraction = text.includes('.') ? text.split('.')[1]!.replace(/0+$/, '') : '';
  return formatNumber(text, Math.max(2, Math.min(fraction.length, 8)));
}
