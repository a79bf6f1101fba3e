import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export interface BasicInfo {
  service_link: string;
  service_link_type: number;
  verify_reg_type: number;
  trade_fee_type: number;
}

/** GET /api/basicSet/getBasicInfo: base data; registration reads verify_reg_type. */
export const getBasicInfo = () => apiGet<BasicInfo>('/api/basicSet/getBasicInfo', undefined, { showErrorMessage: false });

export const getBasicInfoQueryOptions = () => queryOptions({ queryKey: ['basicSet', 'getBasicInfo'], queryFn: getBasicInfo });

export const useBasicInfo = () => useQuery(getBasicInfoQueryOptions());
