import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callFrom, outboxCount, randomIp, registerByEmail, STRONG_PASSWORD } from '../../../test/auth-helpers.ts';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { outbox, users } from '../../platform/db/schema.ts';
import { totpCode } from '../../platform/totp.ts';
import { hashPassword, usePasswordCost } from './password.ts';
import { insertUser } from './user-repository.ts';

describe.each(dbTargets)('trader login protection, two-factor sign-in and password rehash on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => t?.close());

  const login = (ip: string, params: Record<string, unknown>) =>
    callFrom(t, ip, 'POST', '/api/user/loginForU', { login_type: 'email', ...params }, { lang: 'en' });
  const solved = async (params: Record<string, unknown>) => ({
    ...params,
    key: (await t.ctx.services.captcha.create('QWER')).id,
    captcha: 'QWER',
  });

  it('a source that keeps failing on an account waits longer each time; the owner elsewhere is held up only by the account lock', async () => {
    const { email, password, user } = await registerByEmail(t);
    const attacker = randomIp();
    for (let i = 0; i < 5; i++)
      expect((await login(attacker, await solved({ account: email, password: `Guess-${i}-wrong` }))).code).toBe(0);
    // Five wrong passwords lock the account's password for everyone (password-locks.test.ts).
    expect((await login(randomIp(), await solved({ account: email, password }))).msg).toMatch(/^Too many wrong passwords/);
    // Once that lock is over, the failing address still waits; even the right password waits.
    await t.ctx.services.throttle.reset(`secret:password:user:${user.id}`);
    expect(await login(attacker, await solved({ account: email, password }))).toMatchObject({
      code: 0,
      msg: expect.stringMatching(/^Too many failed attempts. Please wait (1 second|\d+ seconds) and try again/),
    });
    expect((await login(randomIp(), await solved({ account: email, password }))).code).toBe(1);
  });

  it('tells the owner by email of repeated failed logins, once, when they lock the password', async () => {
    const { email } = await registerByEmail(t);
    const before = await outboxCount(t, email);
    for (let i = 0; i < 7; i++) await login(randomIp(), await solved({ account: email, password: `Guess-${i}-wrong` }));
    expect(await outboxCount(t, email)).toBe(before + 1);
    const [alert] = await t.ctx.db.select().from(outbox).where(eq(outbox.destination, email)).orderBy(outbox.id).limit(1).offset(before);
    expect(alert).toMatchObject({ subject: 'Failed logins to your account' });
    expect(alert!.body).toMatch(/wrong password for your account several times .* locked for 15 minutes/);
  });

  it('rehashes a password made with older scrypt parameters at the next login', async () => {
    const { email, user } = await registerByEmail(t);
    usePasswordCost(8192);
    const old = await hashPassword(STRONG_PASSWORD);
    usePasswordCost(16384);
    await t.ctx.db.update(users).set({ passwordHash: old }).where(eq(users.id, user.id));
    expect((await login(randomIp(), { account: email, password: STRONG_PASSWORD })).code).toBe(1);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect((await login(randomIp(), { account: email, password: STRONG_PASSWORD })).code).toBe(1);
  });

  it('two-factor sign-in: set up with a QR code, confirmed with a code, then required at login and for withdrawals; off with a code', async () => {
    const { email, password, token } = await registerByEmail(t);
    expect((await call(t, 'GET', '/api/user/totp/status', {}, { token })).data).toEqual({ enabled: false });
    const setup = await call(t, 'POST', '/api/user/totp/setup', {}, { token });
    expect(setup.data.otpauth_url).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]{32}/);
    const secret = setup.data.secret as string;
    // Not yet on: login needs no code.
    expect((await login(randomIp(), { account: email, password })).code).toBe(1);
    expect(await call(t, 'POST', '/api/user/totp/enable', { code: '12345' }, { token, lang: 'en' })).toMatchObject({
      code: 1001,
      msg: 'Please enter the 6-digit code',
    });
    // One instant for the codes below, so a step boundary passing on a slow machine changes nothing.
    const at = Date.now();
    expect((await call(t, 'POST', '/api/user/totp/enable', { code: totpCode(secret, at) }, { token })).code).toBe(1);
    expect((await call(t, 'GET', '/api/user/totp/status', {}, { token })).data).toEqual({ enabled: true });

    expect(await login(randomIp(), { account: email, password })).toMatchObject({
      code: 1023,
      msg: 'Enter the 6-digit code from your authenticator app',
    });
    // The code that turned it on was used; the next step's code signs in, once.
    expect((await login(randomIp(), { account: email, password, totp: totpCode(secret, at) })).code).toBe(0);
    const next = totpCode(secret, at + 30_000);
    expect((await login(randomIp(), { account: email, password, totp: next })).code).toBe(1);
    expect((await login(randomIp(), { account: email, password, totp: next })).code).toBe(0);
    // A wrong password never gets to the code question.
    expect((await login(randomIp(), { account: email, password: 'Wrong-pass-12' })).msg).toBe('Incorrect account or password');

    const draw = await call(t, 'POST', '/api/account/draw', { draw_currency_id: 1, number: '10' }, { token, lang: 'en' });
    expect(draw).toMatchObject({ code: 0, msg: 'Enter the 6-digit code from your authenticator app to withdraw' });

    expect((await call(t, 'POST', '/api/user/totp/disable', { code: next }, { token })).code).toBe(0);
    // Thirty seconds later the following code turns it off.
    const later = Date.now() + 30_000;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      expect((await call(t, 'POST', '/api/user/totp/disable', { code: totpCode(secret, later + 30_000) }, { token })).code).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
    expect((await login(randomIp(), { account: email, password })).code).toBe(1);
  });

  it('demo accounts have no two-factor sign-in', async () => {
    const demo = await insertUser(t.ctx.db, { isDemo: true, demoId: `demo-2fa-${Date.now()}` });
    const token = await t.ctx.services.sessions.create({ userId: demo.id });
    expect((await call(t, 'POST', '/api/user/totp/setup', {}, { token })).code).toBe(1010);
  });
});
