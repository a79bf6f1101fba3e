import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutputOf } from '@tp/contract/endpoint';
import { apiKeyList } from '@tp/contract/endpoints/auth';
import { call, queryKey } from '../../../lib/api-client';

export type ApiKey = OutputOf<typeof apiKeyList>[number];

/** The user's API keys, newest first (never the secret). */
export const getApiKeys = (signal?: AbortSignal) => call(apiKeyList, undefined, { signal, showErrorMessage: false });

export const getApiKeysQueryOptions = () => queryOptions({ queryKey: queryKey(apiKeyList), queryFn: ({ signal }) => getApiKeys(signal) });

export const useApiKeys = () => useQuery(getApiKeysQueryOptions());
