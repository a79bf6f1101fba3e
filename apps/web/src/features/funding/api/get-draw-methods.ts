import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export interface DrawMethod {
  id: number;
  /** 1 coin address, 2 bank account. */
  type: number;
  dc_address: string;
  bank_name: string;
  bank_address: string;
  bank_swift: string;
  payee_name: string;
  payee_account: string;
  draw_currency: { id: number; code: string; protocol: string };
}

export const drawMethodsQueryKey = ['wallet', 'get_draw_method'] as const;

/** GET /api/wallet/get_draw_method: bound receiving accounts (draw_type 1 coin, 2 bank; draw_id a currency). */
export const getDrawMethods = (drawType: 1 | 2, drawId?: number) =>
  apiGet<DrawMethod[]>('/api/wallet/get_draw_method', { draw_type: drawType, draw_id: drawId }, { showErrorMessage: false });

export const getDrawMethodsQueryOptions = (drawType: 1 | 2, drawId?: number) =>
  queryOptions({ queryKey: [...drawMethodsQueryKey, drawType, drawId ?? 0], queryFn: () => getDrawMethods(drawType, drawId), staleTime: 0 });

export const useDrawMethods = (drawType: 1 | 2, drawId: number | undefined, enabled: boolean) =>
  useQuery({ ...getDrawMethodsQueryOptions(drawType, drawId), enabled });
