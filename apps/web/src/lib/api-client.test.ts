import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLoadingStore } from '../components/ui/loading-store';
import { useToastStore } from '../components/ui/toast-store';
import { z } from 'zod';
import { endpoint } from '@tp/contract/endpoint';
import { ApiError, apiDelete, apiGet, apiPost, call, queryKey } from './api-client';
import { useStaffSession } from './staff-session-store';
import { initI18n } from './i18n';
import { setNavigator } from './navigation';
import { useSessionStore } from './session-store';

const navigate = vi.fn();
const fetchMock = vi.fn<typeof fetch>();

const envelope = (code: number, data: unknown = null, msg = '') =>
  new Response(JSON.stringify({ code, msg, data }), { status: 200, headers: { 'content-type': 'application/json' } });

const lastCall = () => {
  const [url, init] = fetchMock.mock.calls[fetchMock.mock.calls.length - 1]!;
  return { url: String(url), init: init!, headers: init!.headers as Record<string, string> };
};
const toasts = () => useToastStore.getState().toasts.map((t) => t.message);

beforeAll(async () => {
  await initI18n();
});

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  navigate.mockReset();
  setNavigator(navigate);
  useToastStore.setState({ toasts: [] });
  useSessionStore.setState({ token: null, user: null });
});

afterEach(() => {
  vi.unstubAllGlobals();
  setNavigator(null);
});

describe('requests', () => {
  it('GET adds the query, a t timestamp, the lang header and the raw token', async () => {
    useSessionStore.setState({ token: 'tok-1' });
    fetchMock.mockResolvedValue(envelope(1, [1, 2]));
    await expect(apiGet('/v1/api/forex/trade_list', { searchCurrency: 'BTC', skip: undefined })).resolves.toEqual([1, 2]);
    const { url, init, headers } = lastCall();
    expect(init.method).toBe('GET');
    expect(url).toMatch(/^\/v1\/api\/forex\/trade_list\?searchCurrency=BTC&t=\d+$/);
    expect(headers.authorization).toBe('tok-1');
    expect(headers.lang).toBeTruthy();
  });

  it('DELETE adds t too; POST does not', async () => {
    fetchMock.mockImplementation(async () => envelope(1));
    await apiDelete('/api/x', { id: 3 });
    expect(lastCall().url).toMatch(/\/api\/x\?id=3&t=\d+/);
    await apiPost('/api/y', { a: 1 });
    expect(lastCall().url).toBe('/api/y');
  });

  it('sends no authorization header without a session', async () => {
    fetchMock.mockResolvedValue(envelope(1));
    await apiGet('/api/z');
    expect(lastCall().headers.authorization).toBeUndefined();
  });

  it('POST is form-urlencoded by default, JSON or multipart on request', async () => {
    fetchMock.mockImplementation(async () => envelope(1));
    await apiPost('/api/user/loginForU', { account: 'a@b.c', password: 'p w', login_type: 'email', none: null });
    expect(lastCall().headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(lastCall().init.body).toBe('account=a%40b.c&password=p+w&login_type=email');

    await apiPost('/api/j', { a: [1] }, { bodyType: 'json' });
    expect(lastCall().headers['content-type']).toBe('application/json');
    expect(lastCall().init.body).toBe('{"a":[1]}');

    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.png');
    await apiPost('/api/common/image_upload', form);
    expect(lastCall().init.body).toBe(form);
    expect(lastCall().headers['content-type']).toBeUndefined();
  });
});

describe('answers', () => {
  it('code 1 resolves data and toasts msg only when asked', async () => {
    fetchMock.mockImplementation(async () => envelope(1, { ok: true }, 'saved'));
    await expect(apiPost('/api/a')).resolves.toEqual({ ok: true });
    expect(toasts()).toEqual([]);
    await apiPost('/api/a', undefined, { showSuccessMessage: true });
    expect(toasts()).toEqual(['saved']);
  });

  it('other codes toast msg and reject with ApiError', async () => {
    fetchMock.mockImplementation(async () => envelope(2001, null, 'market closed'));
    const error = await apiGet('/api/a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 2001, message: 'market closed', kind: 'business' });
    expect(toasts()).toEqual(['market closed']);
    await apiGet('/api/a', undefined, { showErrorMessage: false }).catch(() => {});
    expect(toasts()).toEqual(['market closed']);
  });

  it('999 clears the session and goes to login with the current path', async () => {
    useSessionStore.setState({ token: 'tok', user: { email: 'a', uid: '1', mobile: '', area_id: 0, is_demo: 0, invite_code: '', id: 1 } });
    fetchMock.mockResolvedValue(envelope(999, null, 'expired'));
    await expect(apiGet('/api/user/info')).rejects.toMatchObject({ code: 999 });
    expect(useSessionStore.getState()).toMatchObject({ token: null, user: null });
    expect(navigate).toHaveBeenCalledWith('/login?redirect=%2F', { replace: true });
    expect(toasts()).toEqual([]);
  });

  it('999 on an initial call clears the session without navigating', async () => {
    useSessionStore.setState({ token: 'tok' });
    fetchMock.mockResolvedValue(envelope(999));
    await expect(apiGet('/api/user/info', undefined, { initial: true })).rejects.toMatchObject({ code: 999 });
    expect(useSessionStore.getState().token).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });
});

const hangUntilAborted: typeof fetch = (_url, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
  });

describe('network failures', () => {
  it('gives up after timeoutMs with the network-error toast (ERR_TIMEOUT)', async () => {
    fetchMock.mockImplementation(hangUntilAborted);
    await expect(apiGet('/api/a', undefined, { timeoutMs: 30 })).rejects.toMatchObject({ code: 'ERR_TIMEOUT', kind: 'network' });
    expect(toasts()).toHaveLength(1);
    expect(toasts()[0]).toContain('ERR_TIMEOUT');
  });

  it('a trading endpoint carries a timeout signal; a cancel by the caller stays silent', async () => {
    const order = endpoint({ method: 'POST', path: '/v1/api/forex/x', auth: 'user', input: z.object({}), output: z.null(), summary: 'order', tags: ['trading'] });
    fetchMock.mockImplementation(hangUntilAborted);
    const controller = new AbortController();
    const pending = call(order, {}, { signal: controller.signal });
    expect(lastCall().init.signal).toBeInstanceOf(AbortSignal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ERR_CANCELED', kind: 'aborted' });
    expect(toasts()).toHaveLength(0);
  });

  it('toasts ERR_NETWORK when fetch throws', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiGet('/api/a')).rejects.toMatchObject({ code: 'ERR_NETWORK', kind: 'network' });
    expect(toasts()).toHaveLength(1);
    expect(toasts()[0]).toContain('ERR_NETWORK');
  });

  it('uses the HTTP status when a non-2xx answer has no envelope', async () => {
    fetchMock.mockResolvedValue(new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(apiGet('/api/a')).rejects.toMatchObject({ code: 502, kind: 'network' });
    expect(toasts()).toHaveLength(1);
    expect(toasts()[0]).toContain('502');
  });

  it('reads the envelope of a non-2xx answer that has one', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ code: 1029, msg: 'slow down', data: null }), { status: 429 }));
    await expect(apiGet('/api/a')).rejects.toMatchObject({ code: 1029, message: 'slow down' });
    expect(toasts()).toEqual(['slow down']);
  });

  it('stays silent when the request was aborted', async () => {
    const controller = new AbortController();
    fetchMock.mockImplementation(async () => {
      controller.abort();
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    await expect(apiGet('/api/a', undefined, { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(toasts()).toEqual([]);
  });
});

describe('loading indicator', () => {
  it('counts parallel calls and closes when the last answers', async () => {
    const resolvers: Array<(r: Response) => void> = [];
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => resolvers.push(resolve)));
    const a = apiGet('/api/a', undefined, { loading: true });
    const b = apiGet('/api/b', undefined, { loading: true });
    const c = apiGet('/api/c');
    expect(useLoadingStore.getState().pending).toBe(2);
    resolvers[0]!(envelope(1));
    await a;
    expect(useLoadingStore.getState().pending).toBe(1);
    resolvers[1]!(envelope(0, null, 'no'));
    await b.catch(() => {});
    expect(useLoadingStore.getState().pending).toBe(0);
    resolvers[2]!(envelope(1));
    await c;
  });
});

describe('call(endpoint, input)', () => {
  const list = endpoint({ method: ['GET', 'POST'], path: '/v1/api/test/list', auth: 'user', input: z.object({ page: z.number() }), output: z.array(z.number()), summary: 's', tags: [] });
  const save = endpoint({ method: 'POST', path: '/api/admin/test/save', auth: 'staff', input: z.object({ name: z.string() }), output: z.null(), summary: 's', tags: [], body: 'json' });

  it('sends the first method with the input as the query, with the trader token', async () => {
    useSessionStore.setState({ token: 'trader' });
    fetchMock.mockResolvedValue(envelope(1, [3]));
    await expect(call(list, { page: 2 })).resolves.toEqual([3]);
    const { url, init, headers } = lastCall();
    expect(init.method).toBe('GET');
    expect(url).toMatch(/^\/v1\/api\/test\/list\?page=2&t=\d+$/);
    expect(headers.authorization).toBe('trader');
  });

  it('sends a staff endpoint with the staff token and its body encoding, and ends only the staff session on 999', async () => {
    useSessionStore.setState({ token: 'trader' });
    useStaffSession.setState({ token: 'staff-token', staff: null });
    fetchMock.mockResolvedValue(envelope(1, null));
    await call(save, { name: 'x' });
    const { init, headers } = lastCall();
    expect(init.method).toBe('POST');
    expect(headers.authorization).toBe('staff-token');
    expect(headers['content-type']).toBe('application/json');
    expect(init.body).toBe('{"name":"x"}');
    fetchMock.mockResolvedValue(envelope(999, null, 'expired'));
    await expect(call(save, { name: 'x' }, { showErrorMessage: false })).rejects.toBeInstanceOf(ApiError);
    expect(useStaffSession.getState().token).toBeNull();
    expect(useSessionStore.getState().token).toBe('trader');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('keys a query by the endpoint and its input, so the endpoint alone invalidates every input', () => {
    expect(queryKey(list)).toEqual(['/v1/api/test/list']);
    expect(queryKey(list, { page: 1 })).toEqual(['/v1/api/test/list', { page: 1 }]);
  });
});
