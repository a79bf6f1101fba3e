import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, staff, staffAuditLog } from '../src/platform/db/schema.ts';
import { totpCode } from '../src/platform/totp.ts';
import { hashPassword } from '../src/modules/auth/password.ts';
import { newUser } from '../src/modules/funding/test-helpers.ts';
import { callFrom, outboxCount, randomIp, registerByEmail, staffSession, uniqueEmail } from './auth-helpers.ts';
import { call, createTestApp, dbTargets, type TestApp } from './test-app.ts';

/**
 * Guards walked around as a hostile client would: second factors guessed with a stolen session,
 * login counters dodged by varying area_id, unthrottled staff sign-ins with random e-mails, staff
 * powers beyond their role, and the probe's leftovers.
 */
describe.each(dbTargets)('guards keyed on the right thing on %s', (target) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(target, { METRICS_TOKEN: 'metrics-token-0123456789', STAFF_LOGIN_FAILURES_PER_IP: '5' });
    admin = (await callFrom(t, randomIp(), 'POST', '/api/admin/login', { email: 'admin@test.local', password: 'admin-password-1' })).data
      .token;
  });
  afterAll(async () => t?.close());

  const withTotp = async () => {
    const account = await registerByEmail(t);
    const secret = (await call(t, 'POST', '/api/user/totp/setup', {}, { token: account.token })).data.secret as string;
    expect((await call(t, 'POST', '/api/user/totp/enable', { code: totpCode(secret) }, { token: account.token })).code).toBe(1);
    return { ...account, secret };
  };
  const wrongCode = (secret: string) => {
    const right = new Set([-30_000, 0, 30_000, 60_000].map((d) => totpCode(secret, Date.now() + d)));
    for (let n = 100_000; ; n++) if (!right.has(String(n))) return String(n);
  };
  const lockMail = async (email: string) => {
    await t.ctx.services.codes.settled();
    return t.ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.destination, email), eq(outbox.subject, 'Security check locked on your account')));
  };

  it('wrong second-factor codes on withdrawals lock after 5, even for the right code, and the owner is told', async () => {
    const { token, secret, email } = await withTotp();
    const draw = (totp: string) => call(t, 'POST', '/api/account/draw', { draw_currency_id: 1, number: '10', totp }, { token, lang: 'en' });
    for (let i = 0; i < 5; i++)
      expect((await draw(wrongCode(secret))).msg).toBe('The code is not correct; check your authenticator app and try again');
    const locked = await draw(totpCode(secret, Date.now() + 30_000));
    expect(locked).toMatchObject({
      code: 0,
      msg: expect.stringMatching(/^Too many wrong codes\. This check is locked; please try again in \d+ minutes\.$/),
    });
    expect(await lockMail(email)).toHaveLength(1);
    // The lock is per user, wherever the code is tried: turning two-factor off is locked too.
    expect(
      (await call(t, 'POST', '/api/user/totp/disable', { code: totpCode(secret, Date.now() + 30_000) }, { token, lang: 'en' })).msg,
    ).toMatch(/^Too many wrong codes/);
  });

  it('a burst of parallel wrong codes on the disable call is counted before any is checked', async () => {
    const { token, secret } = await withTotp();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        callFrom(t, randomIp(), 'POST', '/api/user/totp/disable', { code: wrongCode(secret) }, { token, lang: 'en' }),
      ),
    );
    expect(answers.filter((a) => a.msg.startsWith('Too many wrong codes')).length).toBe(25);
    expect(
      (await call(t, 'POST', '/api/user/totp/disable', { code: totpCode(secret, Date.now() + 30_000) }, { token, lang: 'en' })).msg,
    ).toMatch(/^Too many wrong codes/);
    expect((await call(t, 'GET', '/api/user/totp/status', {}, { token })).data).toEqual({ enabled: true });
  });

  it('wrong codes at sign-in lock the second factor; the owner is told', async () => {
    const { email, password, secret } = await withTotp();
    const login = (totp: string) =>
      callFrom(t, randomIp(), 'POST', '/api/user/loginForU', { login_type: 'email', account: email, password, totp }, { lang: 'en' });
    for (let i = 0; i < 3; i++)
      expect((await login(wrongCode(secret))).msg).toBe('The code is not correct; check your authenticator app and try again');
    // The account now asks for a captcha as well; the code counter keeps counting with it.
    const solved = async (totp: string) =>
      callFrom(
        t,
        randomIp(),
        'POST',
        '/api/user/loginForU',
        { login_type: 'email', account: email, password, totp, key: (await t.ctx.services.captcha.create('QWER')).id, captcha: 'QWER' },
        { lang: 'en' },
      );
    for (let i = 0; i < 2; i++)
      expect((await solved(wrongCode(secret))).msg).toBe('The code is not correct; check your authenticator app and try again');
    expect((await solved(totpCode(secret, Date.now() + 30_000))).msg).toMatch(/^Too many wrong codes/);
    expect(await lockMail(email)).toHaveLength(1);
  });

  it('set-up shows a fresh secret each time: one read earlier cannot be confirmed', async () => {
    const { token } = await registerByEmail(t);
    const first = (await call(t, 'POST', '/api/user/totp/setup', {}, { token })).data.secret as string;
    const second = (await call(t, 'POST', '/api/user/totp/setup', {}, { token })).data.secret as string;
    expect(second).not.toBe(first);
    expect((await call(t, 'POST', '/api/user/totp/enable', { code: totpCode(first) }, { token })).code).toBe(0);
    expect((await call(t, 'POST', '/api/user/totp/enable', { code: totpCode(second) }, { token })).code).toBe(1);
  });

  it('wrong reset codes lock per account across codes; the owner is told', async () => {
    const { email } = await registerByEmail(t);
    const reset = (code: string) =>
      callFrom(
        t,
        randomIp(),
        'POST',
        '/api/user/forget_password',
        { type: 'email', account: email, auth_code: code, new_password: 'New-Pass-9876', secondary_password: 'New-Pass-9876' },
        { lang: 'en' },
      );
    for (let i = 0; i < 5; i++) expect((await reset(String(100_000 + i))).code).toBe(0);
    await t.ctx.services.throttle.reset(`code:${email}`);
    expect((await callFrom(t, randomIp(), 'POST', '/api/notify/send_email', { to: email, type: 2 })).code).toBe(1);
    await t.ctx.services.codes.settled();
    const [sent] = await t.ctx.db.select().from(outbox).where(eq(outbox.destination, email)).orderBy(desc(outbox.id)).limit(1);
    const fresh = /\b(\d{6})\b/.exec(sent!.body)![1]!;
    expect((await reset(fresh)).msg).toMatch(/^Too many wrong codes/);
    expect(await lockMail(email)).toHaveLength(1);
  });

  it('varying area_id or spacing does not start a fresh login counter: the captcha comes and the owner is told', async () => {
    const { email } = await registerByEmail(t);
    const before = await outboxCount(t, email);
    const answers: string[] = [];
    for (let area = 1; area <= 4; area++) {
      const res = await callFrom(
        t,
        randomIp(),
        'POST',
        '/api/user/loginForU',
        { login_type: 'email', account: ` ${email.toUpperCase()} `, password: `Guess-${area}-wrong`, area_id: area },
        { lang: 'en' },
      );
      answers.push(String(res.code));
    }
    // The fourth guess, whatever its area_id, needs the captcha (code 1022).
    expect(answers).toEqual(['0', '0', '0', '1022']);
    for (let area = 5; area <= 6; area++) {
      await callFrom(t, randomIp(), 'POST', '/api/user/loginForU', {
        login_type: 'email',
        account: email,
        password: `Guess-${area}-wrong`,
        area_id: area,
        key: (await t.ctx.services.captcha.create('QWER')).id,
        captcha: 'QWER',
      });
    }
    expect(await outboxCount(t, email)).toBe(before + 1);
  });

  it('staff sign-in with unknown e-mails is limited per address, before any hashing', async () => {
    const ip = randomIp();
    const codes: number[] = [];
    // This server allows 5 failures per address (STAFF_LOGIN_FAILURES_PER_IP); the default is 20.
    const unknown = () =>
      callFrom(t, ip, 'POST', '/api/admin/login', { email: uniqueEmail('nobody'), password: 'whatever-pass-1' }, { lang: 'en' });
    for (let i = 0; i < 5; i++) codes.push((await unknown()).code);
    expect(codes).toEqual([0, 0, 0, 0, 0]);
    const started = performance.now();
    expect((await unknown()).msg).toMatch(/^Too many failed attempts/);
    // Refused before any hashing.
    expect(performance.now() - started).toBeLessThan(1000);
    const refused = await callFrom(
      t,
      ip,
      'POST',
      '/api/admin/login',
      { email: 'admin@test.local', password: 'admin-password-1' },
      { lang: 'en' },
    );
    expect(refused).toMatchObject({
      code: 0,
      msg: expect.stringMatching(/^Too many failed attempts\. Please try again in \d+ minutes\.$/),
    });
    expect(
      (await callFrom(t, randomIp(), 'POST', '/api/admin/login', { email: 'admin@test.local', password: 'admin-password-1' })).code,
    ).toBe(1);
  });

  it('staff sign-in, failed sign-in and sign-out are in the audit log', async () => {
    const email = uniqueEmail('audited');
    const [member] = await t.ctx.db
      .insert(staff)
      .values({ email, name: 'A', passwordHash: await hashPassword('staff-password-1'), roles: ['support'] })
      .returning();
    await callFrom(t, randomIp(), 'POST', '/api/admin/login', { email, password: 'wrong-password-1' });
    const token = (await callFrom(t, randomIp(), 'POST', '/api/admin/login', { email, password: 'staff-password-1' })).data.token as string;
    expect((await call(t, 'POST', '/api/admin/logout', {}, { token })).code).toBe(1);
    const actions = (
      await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.staffId, member!.id)).orderBy(staffAuditLog.id)
    ).map((r) => r.action);
    expect(actions).toEqual(['staff.sign_in_failed', 'staff.sign_in', 'staff.sign_out']);
  });

  it('the outbox (live codes) is the admin role only, and every read is audited', async () => {
    const support = await staffSession(t, ['support']);
    expect((await call(t, 'GET', '/api/admin/outbox', {}, { token: support })).code).toBe(1003);
    const before = (await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'staff.outbox_read'))).length;
    expect((await call(t, 'GET', '/api/admin/outbox', {}, { token: admin })).code).toBe(1);
    expect((await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'staff.outbox_read'))).length).toBe(before + 1);
  });

  it('support may look at identity submissions but not approve them', async () => {
    const support = await staffSession(t, ['support']);
    const u = await newUser(t, { verified: false });
    expect((await call(t, 'POST', '/api/admin/identity/approve', { user_id: u.id }, { token: support })).code).toBe(1003);
    expect((await call(t, 'GET', '/api/admin/identity/list', {}, { token: support })).code).toBe(1);
  });

  it('a role change ends the member’s sessions: a promoted member signs in again', async () => {
    const email = uniqueEmail('promoted');
    const [member] = await t.ctx.db
      .insert(staff)
      .values({ email, name: 'P', passwordHash: await hashPassword('staff-password-1'), roles: ['support'] })
      .returning();
    const token = (await callFrom(t, randomIp(), 'POST', '/api/admin/login', { email, password: 'staff-password-1' })).data.token as string;
    expect(
      (await call(t, 'POST', '/api/admin/staff/roles', { id: member!.id, roles: JSON.stringify(['finance']) }, { token: admin })).code,
    ).toBe(1);
    const u = await newUser(t);
    expect(
      (await call(t, 'POST', '/api/admin/users/adjust_balance', { user_id: u.id, amount: '10', reason: 'x', key: 'promoted-1' }, { token }))
        .code,
    ).toBe(999);
  });

  it('adjust_balance refuses an object or an array as the amount, cleanly', async () => {
    const finance = await staffSession(t, ['finance']);
    const u = await newUser(t);
    for (const amount of [{ a: 1 }, { toString: 1 }, ['10'], [10]]) {
      const res = await call(
        t,
        'POST',
        '/api/admin/users/adjust_balance',
        { user_id: u.id, amount, reason: 'probe', key: `probe-${JSON.stringify(amount)}` },
        { token: finance, json: true },
      );
      expect(res.status).toBe(200);
      expect(res.code).toBe(1001);
    }
  });

  it('risk settings have bounds; content cannot make registration captcha-only', async () => {
    const risk = await staffSession(t, ['risk']);
    const content = await staffSession(t, ['content']);
    const save = (token: string, values: Record<string, string>) =>
      call(t, 'POST', '/api/admin/settings/save', values, { token, json: true });
    expect((await save(risk, { stop_out_level: '150', margin_call_level: '900' })).code).toBe(1001);
    expect((await save(risk, { margin_call_level: '5000' })).code).toBe(1001);
    expect((await save(content, { verify_reg_type: '2' })).code).toBe(1003);
    expect((await save(admin, { verify_reg_type: '2' })).code).toBe(1);
    expect((await save(admin, { verify_reg_type: '1' })).code).toBe(1);
  });

  it('/health/ready: the status for anyone, the details only with the metrics token', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(Object.keys(anon.json())).toEqual(['status']);
    const withToken = await t.app.inject({
      method: 'GET',
      url: '/health/ready',
      headers: { authorization: 'Bearer metrics-token-0123456789' },
    });
    expect(withToken.statusCode).toBe(anon.statusCode);
    expect(withToken.json()).toHaveProperty('checks');
  });
});
