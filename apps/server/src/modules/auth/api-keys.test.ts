import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowNewCode, callFrom, latestCode, outboxCount, randomIp, registerByEmail, staffSession } from '../../../test/auth-helpers.ts';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { demoTrader, symbolId, tick, tradingApp, type Trader } from '../../../test/trading/test-kit.ts';
import { apiKeys } from '../../platform/db/schema.ts';
import { totpCode } from '../../platform/totp.ts';
import { TestClient, type WsMessage } from '../../realtime/ws-test-client.ts';

const BTC = 'BTCUSDT';

interface Answer {
  code: number;
  msg: string;
  data: any;
}

describe.each(dbTargets)('API keys for bots on %s', (target) => {
  let t: TestApp;
  let wsUrl = '';
  const sockets: TestClient[] = [];
  beforeAll(async () => {
    t = await tradingApp(target);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?lang=en`;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.close();
  });

  const createKey = async (trader: { token: string }, params: Record<string, unknown>): Promise<Answer> =>
    // From a fresh address each time: creation has the per-address limit of other guarded calls.
    callFrom(t, randomIp(), 'POST', '/api/user/api_keys/create', params, { token: trader.token, lang: 'en' });
  const newKey = async (trader: Trader | { token: string }, params: Record<string, unknown> = {}) => {
    const made = await createKey(trader, { name: 'bot', scopes: ['trade'], ...params });
    expect(made).toMatchObject({ code: 1, data: { id: expect.any(Number), key: expect.stringMatching(/^tpk_\d+_[A-Za-z0-9_-]{43}$/) } });
    return made.data as { id: number; key: string };
  };
  /** A call with `Authorization: ApiKey <key>` from an address. */
  const withKey = async (key: string, method: 'GET' | 'POST', url: string, params: Record<string, unknown> = {}, ip = '10.1.2.3') => {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)] as [string, string]));
    const res =
      method === 'GET'
        ? await t.app.inject({ method, url: `${url}?${qs}`, headers: { authorization: `ApiKey ${key}`, lang: 'en' }, remoteAddress: ip })
        : await t.app.inject({
            method,
            url,
            headers: { authorization: `ApiKey ${key}`, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
            payload: qs.toString(),
            remoteAddress: ip,
          });
    return res.json() as Answer;
  };
  /** The secret part of `tpk_<id>_<secret>` (the secret itself may hold '_'). */
  const secretOf = (key: string) => key.slice(key.indexOf('_', 4) + 1);
  const sign = (secret: string, ts: string, method: string, path: string, body: string) =>
    createHmac('sha256', secret)
      .update(ts + method + path + body)
      .digest('hex');
  /** A signed call (X-API-Key, X-API-Timestamp, X-API-Signature); the headers are answered too, to replay them. */
  const signed = async (
    made: { id: number; key: string },
    method: 'GET' | 'POST',
    path: string,
    body = '',
    opts: { ts?: number; signature?: string; headers?: Record<string, string>; ip?: string } = {},
  ) => {
    const secret = secretOf(made.key);
    const ts = String(opts.ts ?? Date.now());
    const headers = opts.headers ?? {
      'x-api-key': String(made.id),
      'x-api-timestamp': ts,
      'x-api-signature': opts.signature ?? sign(secret, ts, method, path, body),
      lang: 'en',
      ...(body ? { 'content-type': 'application/json' } : {}),
    };
    const res = await t.app.inject({ method, url: path, headers, payload: body || undefined, remoteAddress: opts.ip ?? '10.9.9.9' });
    return { answer: res.json() as Answer, headers };
  };

  it('creates a key shown once, lists it without the secret, and revokes it', async () => {
    const trader = await demoTrader(t);
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const made = await newKey(trader, { name: 'grid bot', scopes: 'read,trade', ip_allow: '10.0.0.0/8 192.168.1.7', expires_at: expires });
    const list = await call(t, 'GET', '/api/user/api_keys/list', {}, { token: trader.token });
    expect(list.code).toBe(1);
    expect(list.data).toEqual([
      {
        id: made.id,
        name: 'grid bot',
        scopes: ['read', 'trade'],
        ip_allow: ['10.0.0.0/8', '192.168.1.7'],
        expires_at: expires,
        created_at: expect.any(String),
        last_used_at: null,
        revoked_at: null,
      },
    ]);
    expect(JSON.stringify(list.data)).not.toContain(secretOf(made.key));
    // Nothing stored holds the secret in plain text.
    const [row] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, made.id));
    expect(JSON.stringify(row)).not.toContain(secretOf(made.key));

    expect((await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance')).code).toBe(1);
    const used = await call(t, 'GET', '/api/user/api_keys/list', {}, { token: trader.token });
    expect(used.data[0].last_used_at).toEqual(expect.any(String));

    expect((await call(t, 'POST', '/api/user/api_keys/revoke', { id: made.id }, { token: trader.token })).code).toBe(1);
    expect(await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance')).toMatchObject({ code: 999, msg: 'The API key is not valid' });
    const after = await call(t, 'GET', '/api/user/api_keys/list', {}, { token: trader.token });
    expect(after.data[0].revoked_at).toEqual(expect.any(String));
    // Another user's key is not found.
    const other = await demoTrader(t);
    expect((await call(t, 'POST', '/api/user/api_keys/revoke', { id: made.id }, { token: other.token })).code).toBe(1004);
  });

  it('refuses bad input and caps keys per user', async () => {
    const trader = await demoTrader(t);
    expect((await createKey(trader, { name: 'x', scopes: ['withdraw'] })).code).toBe(1001);
    expect((await createKey(trader, { name: 'x', scopes: [] })).code).toBe(1001);
    expect((await createKey(trader, { name: 'x', scopes: ['read'], ip_allow: ['10.0.0.300'] })).code).toBe(1001);
    expect((await createKey(trader, { name: 'x', scopes: ['read'], expires_at: '2001-01-01T00:00:00Z' })).code).toBe(1001);
    for (let i = 0; i < 10; i++) await newKey(trader, { name: `k${i}` });
    expect(await createKey(trader, { name: 'eleventh', scopes: ['read'] })).toMatchObject({ code: 0, msg: expect.stringContaining('10') });
  });

  it('a trade key places and closes an order over HTTP, and its socket login receives FOREX_TRADE and FOREX_CLOSED', async () => {
    const trader = await demoTrader(t);
    const made = await newKey(trader, { scopes: ['trade'] });
    const socket = await TestClient.connect(wsUrl);
    sockets.push(socket);
    expect(await socket.request({ type: 'login', params: 'ApiKey tpk_1_wrong' }, 'login_result')).toMatchObject({ code: 999 });
    expect(await socket.request({ type: 'login', params: `ApiKey ${made.key}` }, 'login_result')).toMatchObject({ code: 1 });
    for (const topic of ['FOREX_TRADE', 'FOREX_CLOSED'])
      expect(await socket.request({ type: 'sub', params: topic }, 'sub_result')).toMatchObject({ code: 1 });

    await tick(t, BTC, '94990', '95010');
    const from = socket.messages.length;
    const opened = await withKey(made.key, 'POST', '/v1/api/forex/submit', {
      type: 1,
      cont: '0.5',
      forex_id: symbolId(t, BTC),
      status: 1,
      multiple: 10,
      target_price: '1',
    });
    expect(opened).toMatchObject({ code: 1, data: { Status: 1, Price: '95010.00' } });
    // The engine's once-a-second sweep pushes FOREX_TRADE to holders of symbols that ticked.
    await tick(t, BTC, '95000', '95020');
    await t.ctx.services.trading.engine.sweep();
    await socket.next((m) => typeof m === 'object' && m.type === 'FOREX_TRADE', 5000, from);
    expect((await withKey(made.key, 'GET', '/v1/api/forex/my_deal', { status: 1 })).data.total).toBe(1);
    const closed = await withKey(made.key, 'POST', '/v1/api/forex/close', { id: opened.data.Id });
    expect(closed).toMatchObject({ code: 1, data: { Status: 3 } });
    const push = (await socket.next((m) => typeof m === 'object' && m.type === 'FOREX_CLOSED', 5000, from)) as WsMessage;
    expect(push.id).toEqual([opened.data.Id]);

    // Revoking the key ends its socket's login.
    const before = socket.messages.length;
    expect((await call(t, 'POST', '/api/user/api_keys/revoke', { id: made.id }, { token: trader.token })).code).toBe(1);
    await socket.next((m) => typeof m === 'object' && m.type === 'session_ended', 3000, before);
  });

  it('no key withdraws, reads or changes security settings, or manages keys; a read key cannot trade', async () => {
    const { token } = await registerByEmail(t);
    const made = await newKey({ token }, { scopes: ['read', 'trade'] });
    const refused = { code: 1003, msg: 'API keys cannot make this call' };
    expect(await withKey(made.key, 'POST', '/api/account/draw', { amount: '10', symbol_id: 1, draw_method_id: 1 })).toMatchObject(refused);
    expect(await withKey(made.key, 'GET', '/api/wallet/get_draw_method')).toMatchObject(refused);
    expect(await withKey(made.key, 'GET', '/api/user/totp/status')).toMatchObject(refused);
    expect(await withKey(made.key, 'POST', '/api/user/totp/setup')).toMatchObject(refused);
    expect(await withKey(made.key, 'POST', '/api/user/totp/disable', { code: '123456' })).toMatchObject(refused);
    expect(await withKey(made.key, 'POST', '/api/user/amend_password', { password: 'x', re_password: 'x', auth_code: '1' })).toMatchObject(
      refused,
    );
    expect(await withKey(made.key, 'POST', '/api/user/logout')).toMatchObject(refused);
    expect(await withKey(made.key, 'POST', '/api/user/api_keys/create', { name: 'child', scopes: 'trade' })).toMatchObject(refused);
    expect(await withKey(made.key, 'GET', '/api/user/api_keys/list')).toMatchObject(refused);
    expect(await withKey(made.key, 'POST', '/api/user/api_keys/revoke', { id: made.id })).toMatchObject(refused);
    // Staff calls never accept a key.
    expect((await withKey(made.key, 'GET', '/api/admin/me')).code).toBe(999);
    // The route decides, not the URL text: an encoded path reaches the same refusal.
    expect(await withKey(made.key, 'GET', '/api/user/totp/%73tatus')).toMatchObject(refused);

    const trader = await demoTrader(t);
    const reader = await newKey(trader, { scopes: ['read'] });
    expect((await withKey(reader.key, 'GET', '/v1/api/main/account/forexDetail')).code).toBe(1);
    expect((await withKey(reader.key, 'GET', '/api/user/info')).code).toBe(1);
    expect(
      await withKey(reader.key, 'POST', '/v1/api/forex/submit', {
        type: 1,
        cont: '0.1',
        forex_id: symbolId(t, BTC),
        status: 1,
        multiple: 10,
      }),
    ).toMatchObject({ code: 1003, msg: "This API key's scopes do not allow this call" });
  });

  it('refuses a key from an address off its allow-list, and expired keys', async () => {
    const trader = await demoTrader(t);
    const made = await newKey(trader, { ip_allow: ['10.20.0.0/16', '2001:db8::1'] });
    expect((await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance', {}, '10.20.3.4')).code).toBe(1);
    expect((await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance', {}, '2001:db8::1')).code).toBe(1);
    expect(await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance', {}, '10.21.3.4')).toMatchObject({
      code: 1003,
      msg: 'This API key may not be used from this address',
    });
    const socket = await TestClient.connect(wsUrl);
    sockets.push(socket);
    // The test socket connects from 127.0.0.1, off the list.
    expect(await socket.request({ type: 'login', params: `ApiKey ${made.key}` }, 'login_result')).toMatchObject({ code: 999 });

    const expiring = await newKey(trader, { expires_at: Date.now() + 60_000 });
    expect((await withKey(expiring.key, 'GET', '/v1/api/main/wallet/getBalance')).code).toBe(1);
    await t.ctx.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expiring.id));
    await new Promise((r) => setTimeout(r, 3100)); // the key cache's few seconds
    expect(await withKey(expiring.key, 'GET', '/v1/api/main/wallet/getBalance')).toMatchObject({
      code: 999,
      msg: 'The API key has expired',
    });
  });

  it('signed requests: accepted once, refused when replayed, stale or wrongly signed', async () => {
    const trader = await demoTrader(t);
    const made = await newKey(trader, { scopes: ['trade'] });
    const path = '/v1/api/main/wallet/getBalance?x=1';
    const first = await signed(made, 'GET', path);
    expect(first.answer.code).toBe(1);
    const replay = await signed(made, 'GET', path, '', { headers: first.headers });
    expect(replay.answer).toMatchObject({ code: 999, msg: 'This signed request was already used' });
    const stale = await signed(made, 'GET', path, '', { ts: Date.now() - 61_000 });
    expect(stale.answer).toMatchObject({ code: 1001 });
    const future = await signed(made, 'GET', path, '', { ts: Date.now() + 61_000 });
    expect(future.answer.code).toBe(1001);
    const wrong = await signed(made, 'GET', path, '', { signature: 'ab'.repeat(32) });
    expect(wrong.answer).toMatchObject({ code: 999, msg: 'The API key is not valid' });
    // The body is signed: a JSON order goes through, and the same headers with another body do not.
    await tick(t, BTC, '94990', '95010');
    const body = JSON.stringify({ type: 1, cont: '0.1', forex_id: symbolId(t, BTC), status: 1, multiple: 10, target_price: '1' });
    const order = await signed(made, 'POST', '/v1/api/forex/submit', body);
    expect(order.answer).toMatchObject({ code: 1, data: { Status: 1 } });
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/v1/api/forex/submit',
      headers: { ...order.headers, 'x-api-timestamp': String(Date.now()) },
      payload: body.replace('0.1', '0.2'),
      remoteAddress: '10.9.9.9',
    });
    expect(tampered.json()).toMatchObject({ code: 999 });
    // A form body is signed as sent too: the order closes.
    const form = `id=${order.answer.data.Id}`;
    const ts = String(Date.now());
    const closing = await t.app.inject({
      method: 'POST',
      url: '/v1/api/forex/close',
      headers: {
        'x-api-key': String(made.id),
        'x-api-timestamp': ts,
        'x-api-signature': sign(secretOf(made.key), ts, 'POST', '/v1/api/forex/close', form),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: form,
      remoteAddress: '10.9.9.9',
    });
    expect(closing.json()).toMatchObject({ code: 1, data: { Status: 3 } });
  });

  it('counts wrong keys: five for one key from one address lock that key there, twenty of any keys lock the address', async () => {
    const { token, email } = await registerByEmail(t);
    const made = await newKey({ token });
    const told = await outboxCount(t, email);
    const ip = randomIp();
    const guess = `tpk_${made.id}_${'A'.repeat(43)}`;
    for (let i = 0; i < 5; i++) expect((await withKey(guess, 'GET', '/v1/api/main/wallet/getBalance', {}, ip)).code).toBe(999);
    expect(await withKey(guess, 'GET', '/v1/api/main/wallet/getBalance', {}, ip)).toMatchObject({
      code: 0,
      msg: expect.stringContaining('locked'),
    });
    expect(await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance', {}, ip)).toMatchObject({ code: 0 });
    // The owner hears of the lock once.
    expect(await outboxCount(t, email)).toBe(told + 1);
    // Elsewhere the right key still works.
    expect((await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance', {}, randomIp())).code).toBe(1);
    // One address trying many keys (unknown ids, malformed keys) is locked out after 20, for every key.
    const sprayer = randomIp();
    for (let i = 0; i < 20; i++) {
      const wrongKey = i % 2 ? `tpk_${900_000 + i}_${'B'.repeat(43)}` : 'not-a-key';
      expect((await withKey(wrongKey, 'GET', '/v1/api/main/wallet/getBalance', {}, sprayer)).code).toBe(999);
    }
    expect(await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance', {}, sprayer)).toMatchObject({
      code: 0,
      msg: expect.stringContaining('locked'),
    });
  });

  it('a user with two-factor on gives the code to create a key', async () => {
    const { token } = await registerByEmail(t);
    const setup = await call(t, 'POST', '/api/user/totp/setup', {}, { token });
    const secret = setup.data.secret as string;
    const at = Date.now();
    expect((await call(t, 'POST', '/api/user/totp/enable', { code: totpCode(secret, at - 30_000) }, { token })).code).toBe(1);
    expect(await createKey({ token }, { name: 'bot', scopes: ['read'] })).toMatchObject({
      code: 0,
      msg: 'Enter the 6-digit code from your authenticator app to create an API key',
    });
    expect((await createKey({ token }, { name: 'bot', scopes: ['read'], totp: '000000' })).code).toBe(0);
    expect((await createKey({ token }, { name: 'bot', scopes: ['read'], totp: totpCode(secret, at) })).code).toBe(1);
  });

  it('a changed or reset password revokes every key of the user, as it ends sessions', async () => {
    const { email, token } = await registerByEmail(t);
    const a = await newKey({ token }, { name: 'a', scopes: ['read'] });
    const b = await newKey({ token }, { name: 'b', scopes: ['read', 'trade'] });
    for (const made of [a, b]) expect((await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance')).code).toBe(1);

    await callFrom(t, randomIp(), 'POST', '/api/notify/send_email', { to: email, type: 2 }, { lang: 'en' });
    const amend = { new_password: 'Fresh-Desk-Pass-3', auth_code: await latestCode(t, email) };
    expect((await call(t, 'POST', '/api/user/amend_password', amend, { token, lang: 'en' })).code).toBe(1);
    for (const made of [a, b]) {
      expect(await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance')).toMatchObject({
        code: 999,
        msg: 'The API key is not valid',
      });
    }
    const listed = await call(t, 'GET', '/api/user/api_keys/list', {}, { token });
    expect(listed.data.map((k: { revoked_at: string | null }) => k.revoked_at)).toEqual([expect.any(String), expect.any(String)]);

    // A key made after the change works, until a reset by code ends it too.
    const c = await newKey({ token }, { name: 'c', scopes: ['read'] });
    expect((await withKey(c.key, 'GET', '/v1/api/main/wallet/getBalance')).code).toBe(1);
    await allowNewCode(t, email);
    await callFrom(t, randomIp(), 'POST', '/api/notify/send_email', { to: email, type: 2 }, { lang: 'en' });
    const reset = { type: 'email', account: email, new_password: 'Other-Desk-Pass-8', secondary_password: 'Other-Desk-Pass-8' };
    const answer = await callFrom(
      t,
      randomIp(),
      'POST',
      '/api/user/forget_password',
      { ...reset, auth_code: await latestCode(t, email) },
      { lang: 'en' },
    );
    expect(answer.code).toBe(1);
    expect(await withKey(c.key, 'GET', '/v1/api/main/wallet/getBalance')).toMatchObject({ code: 999, msg: 'The API key is not valid' });
  });

  it("staff list a user's keys and revoke one, on the audit record", async () => {
    const trader = await demoTrader(t);
    const made = await newKey(trader);
    const support = await staffSession(t, ['support']);
    const content = await staffSession(t, ['content']);
    expect((await call(t, 'GET', '/api/admin/users/api_keys', { user_id: trader.userId }, { token: content })).code).toBe(1003);
    const list = await call(t, 'GET', '/api/admin/users/api_keys', { user_id: trader.userId }, { token: support });
    expect(list).toMatchObject({ code: 1, data: [{ id: made.id, name: 'bot', scopes: ['trade'], revoked_at: null }] });
    expect(JSON.stringify(list.data)).not.toContain(secretOf(made.key));
    expect(
      (await call(t, 'POST', '/api/admin/users/api_keys/revoke', { user_id: trader.userId, id: made.id }, { token: support })).code,
    ).toBe(1);
    expect((await withKey(made.key, 'GET', '/v1/api/main/wallet/getBalance')).code).toBe(999);
    const admin = await staffSession(t, ['admin']);
    // Disabling the account ends its keys' sockets and refuses its keys.
    const live = await newKey(trader, { scopes: ['read'] });
    const socket = await TestClient.connect(wsUrl);
    sockets.push(socket);
    expect(await socket.request({ type: 'login', params: `ApiKey ${live.key}` }, 'login_result')).toMatchObject({ code: 1 });
    const before = socket.messages.length;
    expect((await call(t, 'POST', '/api/admin/users/status', { user_id: trader.userId, status: 0 }, { token: admin })).code).toBe(1);
    await socket.next((m) => typeof m === 'object' && m.type === 'session_ended', 3000, before);
    expect((await withKey(live.key, 'GET', '/v1/api/main/wallet/getBalance')).code).toBe(999);
    const audit = await call(t, 'GET', '/api/admin/audit/list', { limit: 50 }, { token: admin });
    expect(JSON.stringify(audit.data)).toContain('user.api_key_revoke');
  });
});

describe('API key rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { API_KEY_RATE_LIMIT: '3', DEMO_CREATE_RATE_LIMIT: '100000' });
  });
  afterAll(async () => t?.close());

  it('counts per key, wherever its calls come from; another key and sessions keep their own budgets', async () => {
    const trader = await demoTrader(t);
    const create = async () =>
      (await callFrom(t, randomIp(), 'POST', '/api/user/api_keys/create', { name: 'bot', scopes: 'read' }, { token: trader.token }))
        .data as {
        key: string;
      };
    const [a, b] = [await create(), await create()];
    const balance = async (key: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/v1/api/main/wallet/getBalance',
          headers: { authorization: `ApiKey ${key}` },
          remoteAddress: randomIp(),
        })
      ).json() as Answer;
    for (let i = 0; i < 3; i++) expect((await balance(a.key)).code).toBe(1);
    expect((await balance(a.key)).code).toBe(1029);
    expect((await balance(b.key)).code).toBe(1);
    expect((await call(t, 'GET', '/v1/api/main/wallet/getBalance', {}, { token: trader.token })).code).toBe(1);
  });
});

describe.skipIf(!process.env.REDIS_URL)('API key signatures with Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', {
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_PREFIX: `tpk${Date.now().toString(36)}:`,
      DEMO_CREATE_RATE_LIMIT: '100000',
    });
  });
  afterAll(async () => t?.close());

  it('keeps used signatures in Redis: a replay is refused', async () => {
    const trader = await demoTrader(t);
    const made = (
      await callFrom(t, randomIp(), 'POST', '/api/user/api_keys/create', { name: 'bot', scopes: 'read' }, { token: trader.token })
    ).data as { id: number; key: string };
    const secret = made.key.slice(made.key.indexOf('_', 4) + 1);
    const ts = String(Date.now());
    const path = '/v1/api/main/wallet/getBalance';
    const headers = {
      'x-api-key': String(made.id),
      'x-api-timestamp': ts,
      'x-api-signature': createHmac('sha256', secret).update(`${ts}GET${path}`).digest('hex'),
      lang: 'en',
    };
    const send = async () => (await t.app.inject({ method: 'GET', url: path, headers, remoteAddress: randomIp() })).json() as Answer;
    expect((await send()).code).toBe(1);
    expect(await send()).toMatchObject({ code: 999, msg: 'This signed request was already used' });
    expect(await t.ctx.services.throttle.count(`api_key_sig:${made.id}:${headers['x-api-signature']}`)).toBe(2);
  });
});
