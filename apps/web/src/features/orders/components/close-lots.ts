import { dec } from '@tp/contract/decimal';
import { isDecimal } from '../../../lib/stop-levels';

// Kept here too for the order screens that import it from this module.
export { isolateLtr } from '../../../lib/format';

export const decimalsOf = (value: string) => value.split('.')[1]?.replace(/0+$/, '').length ?? 0;

/** Why `lots` cannot be closed out of a position of `held` lots, or null. */
export function closeLotsProblem(lots: string, held: string, min: string, step: string): 'required' | 'max' | 'min' | 'step' | null {
  if (!lots.trim() || !isDecimal(lots) || dec(lots).lte(0)) return 'required';
  const amount = dec(lots);
  if (amount.gt(held)) return 'max';
  if (amount.eq(held)) return null;
  if (amount.lt(min)) return 'min';
  if (Number(step) > 0 && !amount.mod(step).isZero()) return 'step';
  // What stays open must itself be a tradable size.
  if (dec(held).minus(amount).lt(min)) return 'min';
  return null;
}
