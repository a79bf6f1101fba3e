import { queryOptions, useQuery } from '@tanstack/react-query';
import { TradeFeeType } from '@tp/contract/constants';
import { apiGet } from '../../../lib/api-client';

export interface BasicInfo {
  service_link: string;
  service_link_type: number;
  verify_reg_type: number;
  /** 1 fee per lot, otherwise a share of the margin. */
  trade_fee_type: number;
}

export const getBasicInfo = (signal?: AbortSignal): Promise<BasicInfo> =>
  apiGet<BasicInfo>('/api/basicSet/getBasicInfo', undefined, { signal, showErrorMessage: false });

export const getBasicInfoQueryOptions = () =>
  queryOptions({ queryKey: ['basicSet', 'getBasicInfo'], queryFn: ({ signal }) => getBasicInfo(signal), staleTime: 10 * 60_000 });

/** The fee type for estimates: per lot until the base data says otherwise. */
export function useTradeFeeType(): number {
  const info = useQuery(getBasicInfoQueryOptions());
  return info.data?.trade_fee_type ?? TradeFeeType.PER_LOT;
}
