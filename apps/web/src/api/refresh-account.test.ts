import { QueryClient } from '@tanstack/react-query';
import { tradeList } from '@tp/contract/endpoints/market';
import { accountLog, alerts, forexDetail, getBalance, myDeal, notices, statement } from '@tp/contract/endpoints/trading';
import { describe, expect, it } from 'vitest';
import { queryKey } from '../lib/api-client';
import { refreshAfterReconnect } from './refresh-account';

describe('refreshAfterReconnect', () => {
  it('marks the account figures, positions and orders, and the notices stale, and nothing else', () => {
    const client = new QueryClient();
    const refreshed = {
      forexDetail: queryKey(forexDetail),
      balance: queryKey(getBalance),
      positions: [...queryKey(myDeal), { status: 1 }],
      pending: [...queryKey(myDeal), { status: 0 }],
      accountLog: [...queryKey(accountLog), { page: 1 }],
      statement: queryKey(statement),
      notices: queryKey(notices),
      alerts: queryKey(alerts),
    };
    const kept = queryKey(tradeList);
    for (const key of [...Object.values(refreshed), kept]) client.setQueryData(key, { some: 'data' });
    refreshAfterReconnect(client);
    for (const [name, key] of Object.entries(refreshed)) expect(client.getQueryState(key)?.isInvalidated, name).toBe(true);
    expect(client.getQueryState(kept)?.isInvalidated).toBe(false);
  });
});
