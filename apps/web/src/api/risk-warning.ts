import { useQuery } from '@tanstack/react-query';
import { riskWarning } from '@tp/contract/endpoints/trading';
import { call, queryKey } from '../lib/api-client';
import { useSessionStore } from '../lib/session-store';

/** The figure is recomputed daily; a screen re-reads it at most every 10 minutes. */
const STALE_MS = 10 * 60_000;

/** The risk warning of the signed-in trader's account group (a guest: the default group's), cached per session. */
export function useRiskWarning() {
  const token = useSessionStore((state) => state.token);
  return useQuery({
    queryKey: [...queryKey(riskWarning), token ? token.slice(-12) : 'guest'],
    queryFn: ({ signal }) => call(riskWarning, undefined, { signal, showErrorMessage: false }),
    staleTime: STALE_MS,
  });
}
