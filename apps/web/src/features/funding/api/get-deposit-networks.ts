import { queryOptions, useQuery } from '@tanstack/react-query';
import { depositNetworks } from '@tp/contract/endpoints/funding';
import type { OutputOf } from '@tp/contract/endpoint';
import { call, queryKey } from '../../../lib/api-client';

export type DepositNetwork = OutputOf<typeof depositNetworks>[number];

/** Coin deposit networks with the address to send to. */
export const getDepositNetworks = () => call(depositNetworks, undefined, { showErrorMessage: false });

export const getDepositNetworksQueryOptions = () => queryOptions({ queryKey: queryKey(depositNetworks), queryFn: getDepositNetworks });

export const useDepositNetworks = (enabled: boolean) => useQuery({ ...getDepositNetworksQueryOptions(), enabled });
