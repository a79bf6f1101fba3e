import type { QueryClient } from '@tanstack/react-query';
import { accountLog, alerts, forexDetail, getBalance, myDeal, notices, statement } from '@tp/contract/endpoints/trading';
import { queryKey } from '../lib/api-client';

/**
 * After anything that moves the account (an order placed, closed or cancelled, stops changed, a close
 * pushed by the server): every screen that shows the account, the order lists, the account log or a statement
 * refreshes, whatever feature it belongs to.
 */
export function refreshAccount(queryClient: QueryClient): void {
  for (const endpoint of [forexDetail, getBalance, myDeal, accountLog, statement])
    void queryClient.invalidateQueries({ queryKey: queryKey(endpoint) });
}

/**
 * After the live connection comes back (or its login finally passes): pushes sent meanwhile were
 * missed, so the account figures, the order lists and the notices (closes, fills, fired alerts) are read again.
 */
export function refreshAfterReconnect(queryClient: QueryClient): void {
  refreshAccount(queryClient);
  for (const endpoint of [notices, alerts]) void queryClient.invalidateQueries({ queryKey: queryKey(endpoint) });
}
