import { MutationObserver, QueryClient } from '@tanstack/react-query';
import * as api from '@tp/contract/endpoints/admin';
import * as trading from '@tp/contract/endpoints/trading';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToastStore } from '../../../components/ui/toast-store';
import { initI18n } from '../../../lib/i18n';
import { useSessionStore } from '../../../lib/session-store';
import { useStaffSession } from '../../../lib/staff-session-store';
import { staffMutationOptions, staffQueryOptions } from './admin-client';

const fetchMock = vi.fn<typeof fetch>();
const envelope = (code: number, data: unknown = null, msg = '') =>
  new Response(JSON.stringify({ code, msg, data }), { status: 200, headers: { 'content-type': 'application/json' } });
const requests = () => fetchMock.mock.calls.map(([url, init]) => ({ url: String(url), init: init!, headers: init!.headers as Record<string, string> }));

beforeAll(async () => {
  await initI18n();
});

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  useToastStore.setState({ toasts: [] });
  useSessionStore.setState({ token: 'trader', user: null });
  useStaffSession.setState({ token: 'staff-token', staff: null });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('back office calls', () => {
  it('reads with the staff token, leaving blank filters out of the query and the cache key', async () => {
    const client = new QueryClient();
    fetchMock.mockResolvedValue(envelope(1, { data: [], total: 0 }));
    await client.fetchQuery(staffQueryOptions(api.auditList, { action: '', target_type: 'user', page: 1, limit: 20 }));
    const [read] = requests();
    expect(read!.init.method).toBe('GET');
    expect(read!.url).toMatch(/^\/api\/admin\/audit\/list\?target_type=user&page=1&limit=20&t=\d+$/);
    expect(read!.headers.authorization).toBe('staff-token');
    expect(staffQueryOptions(api.auditList, { action: '', page: 1 }).queryKey).toEqual([api.auditList.path, { page: 1 }]);
  });

  it('does not toast a refused read (the screen shows its error state)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    fetchMock.mockResolvedValue(envelope(1003, null, 'no permission'));
    await expect(client.fetchQuery(staffQueryOptions(api.dashboard, undefined))).rejects.toMatchObject({ code: 1003 });
    expect(useToastStore.getState().toasts).toEqual([]);
  });

  it('a change posts JSON, says so, and refreshes every back office query but not the trader screens', async () => {
    const client = new QueryClient();
    fetchMock.mockResolvedValueOnce(envelope(1, []));
    await client.fetchQuery(staffQueryOptions(api.staffList, undefined));
    client.setQueryData([trading.myDeal.path], []);
    fetchMock.mockResolvedValueOnce(envelope(1, { id: 2, email: 'a@b.c', name: 'A', roles: ['risk'], totp_enabled: false, status: 0, created_at: '' }));
    const status = new MutationObserver(client, staffMutationOptions(api.staffStatus, client));
    await status.mutate({ id: 2, status: 0 });
    const post = requests()[1]!;
    expect(post.url).toBe('/api/admin/staff/status');
    expect(post.init.body).toBe('{"id":2,"status":0}');
    expect(post.headers['content-type']).toBe('application/json');
    expect(useToastStore.getState().toasts.map((t) => t.tone)).toEqual(['success']);
    expect(client.getQueryState(staffQueryOptions(api.staffList, undefined).queryKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState([trading.myDeal.path])?.isInvalidated).toBe(false);
  });
});
