import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export interface BankWire {
  id: number;
  bank_name: string;
  bank_address: string;
  bank_swift: string;
  payee_name: string;
  payee_account: string;
  bank_remark: string;
  currency: string;
}

/** GET /api/quickCharge/wire_info: bank accounts to wire to; `notice` is the translated fiat notice when there is none. */
export const getWireInfo = () => apiGet<{ bank_coin: BankWire[]; notice: string }>('/api/quickCharge/wire_info', undefined, { showErrorMessage: false });

export const getWireInfoQueryOptions = () => queryOptions({ queryKey: ['quickCharge', 'wire_info'], queryFn: getWireInfo });

export const useWireInfo = (enabled: boolean) => useQuery({ ...getWireInfoQueryOptions(), enabled });
