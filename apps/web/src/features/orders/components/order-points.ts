import { OrderType } from '@tp/contract/constants';
import { dec } from '@tp/contract/decimal';

/**
 * How far the price has moved for the position, in points (one point is 10^-precision of the
 * price): positive in the position's favour (up for a buy, down for a sell); null while either
 * price is missing ("0" or empty). Whole points, rounded half to even like the server's money.
 */
export function profitPoints(orderType: number, openPrice: string, currentPrice: string, precision: number): string | null {
  const valid = (value: string) => /^\d+(\.\d+)?$/.test(value.trim()) && !dec(value.trim()).isZero();
  if (!valid(openPrice) || !valid(currentPrice)) return null;
  const moved = dec(currentPrice.trim()).minus(openPrice.trim());
  const signed = orderType === OrderType.SELL ? moved.neg() : moved;
  const points = signed.mul(dec(10).pow(precision)).toDecimalPlaces(0);
  return points.isZero() ? '0' : points.toFixed(0);
}
