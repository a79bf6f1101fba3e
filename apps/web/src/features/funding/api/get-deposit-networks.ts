import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export interface DepositNetwork {
  id: number;
  currency_code: string;
  protocol_code: string;
  address: string;
  usd_price: string;
}

/** GET /api/quickCharge/info: coin deposit networks with the address to send to. */
export const getDepositNetworks = () => apiGet<DepositNetwork[]>('/api/quickCharge/info', undefined, { showErrorMessage: false });

export const getDepositNetworksQueryOptions = () => queryOptions({ queryKey: ['quickCharge', 'info'], queryFn: getDepositNetworks });

export const useDepositNetworks = (enabled: boolean) => useQuery({ ...getDepositNetworksQueryOptions(), enabled });
