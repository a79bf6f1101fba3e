import { TradeFeeType } from '@tp/contract/constants';
import { useBasicInfo } from '../../../api/get-basic-info';

/** The fee type for estimates: per lot until the base data says otherwise. */
export function useTradeFeeType(): number {
  return useBasicInfo().data?.trade_fee_type ?? TradeFeeType.PER_LOT;
}
