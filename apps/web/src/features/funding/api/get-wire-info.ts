import { queryOptions, useQuery } from '@tanstack/react-query';
import { wireInfo } from '@tp/contract/endpoints/funding';
import type { OutputOf } from '@tp/contract/endpoint';
import { call, queryKey } from '../../../lib/api-client';

export type BankWire = OutputOf<typeof wireInfo>['bank_coin'][number];

/** Bank accounts to wire to; `notice` is the translated fiat notice when there is none. */
export const getWireInfo = () => call(wireInfo, undefined, { showErrorMessage: false });

export const getWireInfoQueryOptions = () => queryOptions({ queryKey: queryKey(wireInfo), queryFn: getWireInfo });

export const useWireInfo = (enabled: boolean) => useQuery({ ...getWireInfoQueryOptions(), enabled });
