import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';

/** What an API client that is not the web app sees: English without a `lang` header. */
describe('an API client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('reads English messages when it sends no lang header (or an empty one)', async () => {
    const refused = await get('/api/user/info');
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toEqual({ code: 999, msg: 'Your session has expired. Please log in again.', data: null });
    expect((await get('/api/user/info', { lang: ' ' })).json().msg).toBe('Your session has expired. Please log in again.');
    expect((await get('/v1/api/forex/getCategories')).json()).toMatchObject({ code: 1, msg: 'Success' });
    expect((await get('/api/no/such/call')).json()).toMatchObject({ code: 1004, msg: 'This API call does not exist' });
  });

  it('reads the language it asks for, as the web app does (hk, and tw as hk)', async () => {
    expect((await get('/api/user/info', { lang: 'hk' })).json().msg).toBe('登入已過期，請重新登入。');
    expect((await get('/api/user/info', { lang: 'tw' })).json().msg).toBe('登入已過期，請重新登入。');
    expect((await get('/v1/api/forex/getCategories', { lang: 'hk' })).json().msg).toBe('成功');
  });
});
