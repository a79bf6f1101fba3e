import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../src/config.ts';
import { seedDatabase } from '../src/platform/db/seed.ts';
import { sessions } from '../src/platform/db/schema.ts';
import { hashToken } from '../src/modules/auth/session-service.ts';
import { insertUser } from '../src/modules/auth/user-repository.ts';
import { call, createTestApp, dbTargets, type TestApp } from './test-app.ts';

describe.each(dbTargets)('foundation on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // A route that fails unexpectedly, to check that faults never leak their text.
    t = await createTestApp(target, {}, {}, (app) =>
      app.get('/api/test/boom', async () => {
        throw new Error('secret internal detail: relation users');
      }),
    );
  });
  afterAll(async () => t?.close());

  const userToken = async () => {
    const user = await insertUser(t.ctx.db, { email: `u${Date.now()}${Math.random()}@example.com` });
    return { user, token: await t.ctx.services.sessions.create({ userId: user.id }) };
  };

  it('answers 999 for a missing, unknown, expired or revoked token, with HTTP 200', async () => {
    const missing = await call(t, 'GET', '/api/user/info');
    expect(missing).toMatchObject({ status: 200, code: 999, data: null });
    const unknown = await call(t, 'GET', '/api/user/info', {}, { token: 'not-a-real-token' });
    expect(unknown.code).toBe(999);

    const { token } = await userToken();
    await t.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(sql`${sessions.tokenHash} = ${hashToken(token)}`);
    expect((await call(t, 'GET', '/api/user/info', {}, { token })).code).toBe(999);

    const fresh = await userToken();
    expect((await call(t, 'GET', '/api/user/info', {}, { token: fresh.token })).code).toBe(1);
    expect((await call(t, 'POST', '/api/user/logout', {}, { token: fresh.token })).code).toBe(1);
    expect((await call(t, 'GET', '/api/user/info', {}, { token: fresh.token })).code).toBe(999);
  });

  it('returns the user in the spec shape, accepting a Bearer prefix and ignoring t', async () => {
    const { user, token } = await userToken();
    const res = await call(t, 'GET', '/api/user/info', { t: 123 }, { token: `Bearer ${token}` });
    expect(res.code).toBe(1);
    expect(res.data).toMatchObject({ id: user.id, uid: user.uid, email: user.email, is_demo: 0, invite_code: user.inviteCode });
  });

  it('translates msg by the lang header, falling back to hk for unknown codes, tw meaning hk, English without the header', async () => {
    const en = await call(t, 'GET', '/api/user/info', {}, { lang: 'en' });
    const hk = await call(t, 'GET', '/api/user/info', {}, { lang: 'hk' });
    const bad = await call(t, 'GET', '/api/user/info', {}, { lang: 'xx-nope' });
    const tw = await call(t, 'GET', '/api/user/info', {}, { lang: 'tw' });
    const none = await call(t, 'GET', '/api/user/info');
    expect(en.msg).toMatch(/session/i);
    expect(hk.msg).not.toBe(en.msg);
    expect(bad.msg).toBe(hk.msg);
    expect(tw.msg).toBe(hk.msg);
    // No header is an API client, not the web app (which always sends its language): English.
    expect(none.msg).toBe(en.msg);
  });

  it('hides the text of real faults behind a 500 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/boom', headers: { lang: 'en' } });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/secret|relation/);
    expect(res.json()).toMatchObject({ code: 500, data: null });
  });

  it('answers unknown API paths with a 404 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no/such/call' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 1004 });
  });

  it('accepts form-urlencoded and JSON bodies, and refuses wrong staff credentials alike', async () => {
    const form = await call(t, 'POST', '/api/admin/login', { email: 'admin@test.local', password: 'admin-password-1' });
    expect(form.code).toBe(1);
    expect(form.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const json = await call(t, 'POST', '/api/admin/login', { email: 'admin@test.local', password: 'admin-password-1' }, { json: true });
    expect(json.code).toBe(1);
    const wrong = await call(t, 'POST', '/api/admin/login', { email: 'admin@test.local', password: 'nope-nope-nope' }, { lang: 'en' });
    const unknown = await call(t, 'POST', '/api/admin/login', { email: 'who@test.local', password: 'nope-nope-nope' }, { lang: 'en' });
    expect(wrong.code).not.toBe(1);
    expect(unknown).toMatchObject({ code: wrong.code, msg: wrong.msg });
    const missing = await call(t, 'POST', '/api/admin/login', { email: 'admin@test.local' }, { lang: 'en' });
    expect(missing.code).toBe(1001);
  });

  it('keeps staff calls away from traders', async () => {
    const { token } = await userToken();
    expect((await call(t, 'GET', '/api/admin/me', {}, { token })).code).toBe(999);
    const staff = await call(t, 'POST', '/api/admin/login', { email: 'admin@test.local', password: 'admin-password-1' });
    const me = await call(t, 'GET', '/api/admin/me', {}, { token: staff.data.token });
    expect(me.data).toMatchObject({ email: 'admin@test.local', roles: ['admin'] });
    expect((await call(t, 'GET', '/api/user/info', {}, { token: staff.data.token })).code).toBe(999);
  });

  it('sends security headers and serves the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Every other answer carries helmet's headers with the app's policy (the docs page has its own CSP).
    const api = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(api.headers['content-security-policy']).toBe(
      "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'self';img-src 'self' data: blob:;" +
        "object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self' ws: wss:;" +
        "worker-src 'self';manifest-src 'self'",
    );
    expect(api.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(api.headers['cross-origin-embedder-policy']).toBeUndefined();
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/user/info', '/api/admin/login']));
  });

  it('seeds reference data once: a second run changes nothing', async () => {
    const count = async () => {
      const r = (await t.ctx.db.execute(sql`select (select count(*) from symbols)::int as s, (select count(*) from area_codes)::int as a,
        (select count(*) from news)::int as n, (select count(*) from settings)::int as st, (select count(*) from symbol_leverages)::int as l`)) as unknown as {
        rows: Record<string, number>[];
      };
      return r.rows[0]!;
    };
    const before = await count();
    expect(before.s).toBeGreaterThanOrEqual(24);
    expect(before.a).toBeGreaterThan(200);
    expect(before.n).toBeGreaterThan(0);
    await seedDatabase(t.ctx.db, t.ctx.log, t.config);
    expect(await count()).toEqual(before);
  });
});

describe('configuration', () => {
  it('refuses a bad environment with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 8080, DATA_DIR: './data', LOG_LEVEL: 'info' });
  });
});
