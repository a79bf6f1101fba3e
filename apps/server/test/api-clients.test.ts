import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomIp, staffSession } from './auth-helpers.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/** What an API client that is not the web app sees: English without a `lang` header. */
describe('an API client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const standard = { 'x-http-status': 'standard' };

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

  it('gets HTTP 200 with the envelope by default, whatever the code, and with any other X-HTTP-Status value', async () => {
    for (const headers of [{}, { 'x-http-status': 'legacy' }] as Record<string, string>[]) {
      const refused = await get('/api/user/info', headers);
      expect(refused.statusCode).toBe(200);
      expect(refused.json()).toMatchObject({ code: 999 });
      const invalid = await get('/v1/api/forex/kline?forex_id=1&period=2min', headers);
      expect([invalid.statusCode, invalid.json().code]).toEqual([200, 1001]);
    }
  });

  it('gets standard HTTP statuses with X-HTTP-Status: standard, with the same envelope', async () => {
    // 401: not signed in, or an API key that is not accepted.
    const anonymous = await get('/api/user/info', standard);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer, ApiKey');
    expect(anonymous.json()).toEqual({ code: 999, msg: 'Your session has expired. Please log in again.', data: null });
    const badKey = await get('/api/user/info', { ...standard, authorization: 'ApiKey tpk_1_wrong' });
    expect([badKey.statusCode, badKey.json().code]).toEqual([401, 999]);

    // 403: a staff member without the role the call needs.
    const support = await staffSession(t, ['support']);
    const forbidden = await get('/api/admin/staff/list', { ...standard, authorization: support });
    expect([forbidden.statusCode, forbidden.json().code]).toEqual([403, 1003]);

    // 404: the record does not exist.
    const missing = await get('/v1/api/forex/kline?forex_id=999999&period=1min', standard);
    expect([missing.statusCode, missing.json().code]).toEqual([404, 1004]);

    // 422: a parameter is invalid.
    const invalid = await get('/v1/api/forex/kline?forex_id=1&period=2min', standard);
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toEqual({ code: 1001, msg: 'Unknown chart period', data: null });

    // 409: a duplicate.
    const admin = await staffSession(t, ['admin']);
    const create = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/staff/create',
        headers: { ...standard, authorization: admin, 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'twice@test.local', name: 'Twice', password: 'staff-password-2', roles: ['support'] }),
      });
    const first = await create();
    expect([first.statusCode, first.json().code]).toEqual([200, 1]);
    const duplicate = await create();
    expect([duplicate.statusCode, duplicate.json().code]).toEqual([409, 0]);

    // 400: any other business refusal (code 0: msg says why).
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/user/loginForU',
      headers: { ...standard, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'demo_id=no-such-demo',
      remoteAddress: randomIp(),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ code: 0, msg: 'This demo account no longer exists. Please create a new one.', data: null });

    // 200 on success, and 404 for a call that does not exist (as in both modes).
    expect((await get('/v1/api/forex/getCategories', standard)).statusCode).toBe(200);
    expect((await get('/api/no/such/call', standard)).statusCode).toBe(404);
  });
});

describe('an API client over its rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { RATE_LIMIT_MAX: '2' });
  });
  afterAll(() => t?.close());

  it('gets HTTP 200 with code 1029 by default, and 429 with Retry-After with X-HTTP-Status: standard', async () => {
    const call = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/v1/api/forex/getCategories', headers, remoteAddress: '10.9.8.7' });
    expect((await call({})).statusCode).toBe(200);
    expect((await call({})).statusCode).toBe(200);
    const plain = await call({});
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toEqual({ code: 1029, msg: 'Too many requests. Please wait a moment and try again.', data: null });
    const standardAnswer = await call({ 'x-http-status': 'standard' });
    expect(standardAnswer.statusCode).toBe(429);
    expect(standardAnswer.json()).toEqual({ code: 1029, msg: 'Too many requests. Please wait a moment and try again.', data: null });
    expect(Number(standardAnswer.headers['retry-after'])).toBeGreaterThan(0);
  });
});
