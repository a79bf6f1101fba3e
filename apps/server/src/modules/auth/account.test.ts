import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import {
  allowNewCode,
  callFrom,
  latestCode,
  randomIp,
  registerByEmail,
  staffSession,
  STRONG_PASSWORD,
  uniqueEmail,
} from '../../../test/auth-helpers.ts';
import { ledgerAccounts, sessions, users } from '../../platform/db/schema.ts';
import { insertUser } from './user-repository.ts';

describe.each(dbTargets)('accounts on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => t?.close());

  const sendCode = (ip: string, to: string, type: 1 | 2, lang = 'en') =>
    callFrom(t, ip, 'POST', '/api/notify/send_email', { to, type }, { lang });
  const register = (ip: string, params: Record<string, unknown>, lang = 'en') =>
    callFrom(
      t,
      ip,
      'POST',
      '/api/user/register',
      { type: 'email', password: STRONG_PASSWORD, re_password: STRONG_PASSWORD, ...params },
      { lang },
    );
  const login = (ip: string, params: Record<string, unknown>, lang = 'en') =>
    callFrom(t, ip, 'POST', '/api/user/loginForU', params, { lang });

  it('registers by emailed code, logs in, opens the real ledger accounts', async () => {
    const ip = randomIp();
    const email = uniqueEmail();
    expect(await sendCode(ip, email, 1)).toMatchObject({ code: 1, data: null });
    const code = await latestCode(t, email);
    expect(code).toMatch(/^\d{6}$/);
    const res = await register(ip, { account: email.toUpperCase(), sms_code: code });
    expect(res.code).toBe(1);
    expect(res.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.data.user).toMatchObject({ email, is_demo: 0, mobile: '', area_id: 0 });
    expect(res.data.user.invite_code).toMatch(/^[A-Z2-9]{8}$/);
    const info = await call(t, 'GET', '/api/user/info', {}, { token: res.data.token });
    expect(info.data).toEqual(res.data.user);
    const accounts = await t.ctx.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.userId, res.data.user.id));
    expect(accounts.map((a) => [a.kind, a.isDemo]).sort()).toEqual([
      ['cash', false],
      ['locked', false],
    ]);
    const again = await login(randomIp(), { account: email, password: STRONG_PASSWORD, login_type: 'email' });
    expect(again.code).toBe(1);
    expect(again.data.user).toEqual(res.data.user);
    expect(again.data.token).not.toBe(res.data.token);
  });

  it('refuses registration input with the right messages, in en and hk', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ account: '' }, 'Please enter your email or phone number'],
      [{ account: 'not-an-email', sms_code: '123456' }, 'Please enter a valid email address'],
      [{ account: uniqueEmail(), password: '', sms_code: '123456' }, 'Please enter your password'],
      [{ account: uniqueEmail(), re_password: 'Other-Password-9', sms_code: '123456' }, 'The two passwords do not match'],
      [
        { account: uniqueEmail(), password: 'short', re_password: 'short', sms_code: '123456' },
        'The password must be 8 to 128 characters long',
      ],
      [
        { account: uniqueEmail(), password: 'x'.repeat(129), re_password: 'x'.repeat(129), sms_code: '123456' },
        'The password must be 8 to 128 characters long',
      ],
      [
        { account: uniqueEmail(), password: 'Password123', re_password: 'Password123', sms_code: '123456' },
        'This password is too common. Please choose a less predictable one.',
      ],
      [{ account: uniqueEmail(), invite_code: 'NOSUCH99', sms_code: '123456' }, 'This invitation code does not exist'],
      [{ account: uniqueEmail() }, 'Please enter the verification code'],
      [{ account: uniqueEmail(), sms_code: '123456' }, 'The verification code is wrong or has expired. Please request a new one.'],
      [{ type: 'fax', account: uniqueEmail() }, 'Choose email or mobile'],
      [{ type: 'mobile', account: '91234567' }, 'Please choose your country or region code'],
      [{ type: 'mobile', account: '91234567', area_id: 999999 }, 'This country or region code is not available'],
      [{ type: 'mobile', account: '12', area_id: 1 }, 'Please enter a valid phone number'],
    ];
    for (const [params, msg] of cases) {
      const en = await register(randomIp(), params);
      expect(en.code, msg).not.toBe(1);
      expect(en.msg).toBe(msg);
      const hk = await register(randomIp(), params, 'hk');
      expect(hk.code).toBe(en.code);
      expect(hk.msg).not.toBe(en.msg);
    }
  });

  it('does not reveal through send_email whether an account exists, and refuses the duplicate at the code check', async () => {
    const { email } = await registerByEmail(t);
    const fresh = uniqueEmail();
    const forExisting = await sendCode(randomIp(), email, 1);
    const forNew = await sendCode(randomIp(), fresh, 1);
    expect(forExisting).toEqual(forNew);
    expect(await latestCode(t, fresh)).toMatch(/^\d{6}$/);
    const dup = await register(randomIp(), { account: email, sms_code: '000000' });
    const wrong = await register(randomIp(), { account: fresh, sms_code: (await latestCode(t, fresh)) === '000000' ? '000001' : '000000' });
    expect(dup).toEqual(wrong);
    // For resets it is the other way round: unknown accounts get the same answer and nothing is sent.
    const unknown = uniqueEmail();
    await allowNewCode(t, email);
    expect(await sendCode(randomIp(), unknown, 2)).toEqual(await sendCode(randomIp(), email, 2));
    expect(await latestCode(t, unknown)).toBeNull();
  });

  it('answers an unknown account and a wrong password alike, with similar effort', async () => {
    const { email } = await registerByEmail(t);
    const timed = async (params: Record<string, unknown>) => {
      const start = performance.now();
      const res = await login(randomIp(), params);
      return { res, ms: performance.now() - start };
    };
    const wrong = [];
    const unknown = [];
    for (let i = 0; i < 3; i++) {
      wrong.push(await timed({ account: email, password: `Wrong-${i}-password` }));
      unknown.push(await timed({ account: uniqueEmail(), password: `Wrong-${i}-password` }));
    }
    for (const r of [...wrong, ...unknown])
      expect(r.res).toMatchObject({ code: wrong[0]!.res.code, msg: 'Incorrect account or password', data: null });
    const median = (xs: { ms: number }[]) => xs.map((x) => x.ms).sort((a, b) => a - b)[1]!;
    // Both paths run the password hash: an unknown account is not answered measurably faster.
    expect(median(unknown)).toBeGreaterThan(median(wrong) / 3);
  });

  it('asks for the account, then the password', async () => {
    const ip = randomIp();
    expect(await login(ip, {})).toMatchObject({ code: 1001, msg: 'Please enter your email or phone number' });
    expect(await login(ip, { account: 'a@example.com' })).toMatchObject({ code: 1001, msg: 'Please enter your password' });
    expect((await login(ip, {}, 'hk')).msg).toBe('請輸入電郵或手機號碼');
  });

  it('asks for a captcha after three failures on an account, from anywhere, and lets the owner in with it (the lock comes at five: password-locks.test.ts)', async () => {
    const { email, password } = await registerByEmail(t);
    for (let i = 0; i < 3; i++)
      expect((await login(randomIp(), { account: email, password: `Guess-${i}-wrong` })).msg).toBe('Incorrect account or password');
    const asked = await login(randomIp(), { account: email, password });
    expect(asked).toMatchObject({ code: 1022, msg: 'Please enter the characters shown in the picture to log in', data: null });
    expect((await login(randomIp(), { account: email, password }, 'hk')).msg).toBe('請輸入圖中顯示的字元以登入');
    const wrongPicture = await t.ctx.services.captcha.create('ABCD');
    expect((await login(randomIp(), { account: email, password, key: wrongPicture.id, captcha: 'WXYZ' })).code).toBe(1022);
    // The owner, with the picture solved, gets in at once.
    const picture = await t.ctx.services.captcha.create('ABCD');
    expect((await login(randomIp(), { account: email, password, key: picture.id, captcha: 'abcd' })).code).toBe(1);
    // Unknown accounts are treated the same way, so the captcha reveals nothing either.
    const ghost = uniqueEmail();
    for (let i = 0; i < 3; i++) await login(randomIp(), { account: ghost, password: `Guess-${i}-wrong` });
    expect((await login(randomIp(), { account: ghost, password })).code).toBe(1022);
  });

  it('throttles failures per IP across accounts', async () => {
    const ip = randomIp();
    const { email, password } = await registerByEmail(t);
    for (let i = 0; i < 20; i++)
      expect((await login(ip, { account: uniqueEmail(), password: 'Nope-nope-1' })).msg).toBe('Incorrect account or password');
    expect((await login(ip, { account: email, password })).msg).toMatch(/^Too many failed attempts/);
    expect((await login(randomIp(), { account: email, password })).code).toBe(1);
  });

  it('refuses disabled users once the password is right, and their sessions', async () => {
    const { email, password, token, user } = await registerByEmail(t);
    await t.ctx.db.update(users).set({ status: 0 }).where(eq(users.id, user.id));
    expect(await login(randomIp(), { account: email, password })).toMatchObject({
      code: 0,
      msg: 'This account has been disabled. Please contact support.',
    });
    expect((await login(randomIp(), { account: email, password: 'Wrong-password-1' })).msg).toBe('Incorrect account or password');
    expect((await call(t, 'GET', '/api/user/info', {}, { token })).code).toBe(999);
  });

  it('logs a demo account in by demo_id and refuses it on real-only calls', async () => {
    const demo = await insertUser(t.ctx.db, { isDemo: true, demoId: `demo-${Date.now()}` });
    const res = await login(randomIp(), { demo_id: demo.demoId });
    expect(res.code).toBe(1);
    expect(res.data.user).toMatchObject({ id: demo.id, is_demo: 1 });
    expect(await login(randomIp(), { demo_id: 'no-such-demo' })).toMatchObject({
      code: 0,
      msg: 'This demo account no longer exists. Please create a new one.',
    });
    const only = 'This feature is only for real accounts. Please register or log into a real account.';
    const token = res.data.token;
    expect(await call(t, 'GET', '/api/user/invite_list', {}, { token, lang: 'en' })).toMatchObject({ code: 1010, msg: only });
    expect(
      await call(t, 'POST', '/api/user/amend_password', { new_password: STRONG_PASSWORD, auth_code: '123456' }, { token, lang: 'en' }),
    ).toMatchObject({ code: 1010, msg: only });
    expect((await call(t, 'GET', '/api/user/invite_list', {}, { token, lang: 'hk' })).msg).toBe(
      '此功能僅限真實帳戶使用，請註冊或登入真實帳戶。',
    );
  });

  it('records the referral and lists invitees masked, newest first', async () => {
    const inviter = await registerByEmail(t);
    const a = await registerByEmail(t, { inviteCode: inviter.user.invite_code.toLowerCase() });
    const b = await registerByEmail(t, { inviteCode: inviter.user.invite_code });
    const list = await call(t, 'GET', '/api/user/invite_list', { page: 1 }, { token: inviter.token });
    expect(list.code).toBe(1);
    expect(list.data.total).toBe(2);
    expect(list.data.data.map((r: { uid: string }) => r.uid)).toEqual([b.user.uid, a.user.uid]);
    const row = list.data.data[1];
    expect(row.email).toBe(`${a.email.slice(0, 2)}***@example.com`);
    expect(row.email).not.toContain(a.email.split('@')[0]);
    expect(new Date(row.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const page2 = await call(t, 'GET', '/api/user/invite_list', { page: 2, limit: 1 }, { token: inviter.token });
    expect(page2.data).toMatchObject({ total: 2, data: [{ uid: a.user.uid }] });
    expect((await call(t, 'GET', '/api/user/invite_list', {}, { token: a.token })).data).toEqual({ data: [], total: 0 });
  });

  it('resets a forgotten password with a code, ending every session; the code works once', async () => {
    const { email, token } = await registerByEmail(t);
    const ip = randomIp();
    const forget = (params: Record<string, unknown>, lang = 'en') =>
      callFrom(t, ip, 'POST', '/api/user/forget_password', { type: 'email', account: email, ...params }, { lang });
    expect(await forget({ new_password: 'New-Desk-Pass-7' })).toMatchObject({ code: 1001, msg: 'Please complete all fields' });
    expect(await forget({ new_password: 'New-Desk-Pass-7', secondary_password: 'New-Desk-Pass-8', auth_code: '1' })).toMatchObject({
      msg: 'The two passwords do not match',
    });
    expect(await forget({ new_password: 'New-Desk-Pass-7', secondary_password: 'New-Desk-Pass-7' })).toMatchObject({
      msg: 'Please enter the verification code',
    });
    expect((await sendCode(ip, email, 2)).code).toBe(1);
    const code = await latestCode(t, email);
    const ok = await forget({ new_password: 'New-Desk-Pass-7', secondary_password: 'New-Desk-Pass-7', auth_code: code });
    expect(ok.code).toBe(1);
    expect((await call(t, 'GET', '/api/user/info', {}, { token })).code).toBe(999);
    const reused = await forget({ new_password: 'Other-Desk-Pass-8', secondary_password: 'Other-Desk-Pass-8', auth_code: code });
    expect(reused).toMatchObject({ code: 0, msg: 'The verification code is wrong or has expired. Please request a new one.' });
    expect((await login(randomIp(), { account: email, password: STRONG_PASSWORD })).code).not.toBe(1);
    expect((await login(randomIp(), { account: email, password: 'New-Desk-Pass-7' })).code).toBe(1);
    // An unknown account gets the same answer as a wrong code.
    const unknown = await forget({
      account: uniqueEmail(),
      new_password: 'New-Desk-Pass-7',
      secondary_password: 'New-Desk-Pass-7',
      auth_code: code,
    });
    expect(unknown).toEqual(reused);
  });

  it('changes the password of a logged-in user with a code, ending only the other sessions', async () => {
    const { email, token } = await registerByEmail(t);
    const other = (await login(randomIp(), { account: email, password: STRONG_PASSWORD })).data.token;
    const amend = (params: Record<string, unknown>) => call(t, 'POST', '/api/user/amend_password', params, { token, lang: 'en' });
    expect(await amend({ auth_code: '123456' })).toMatchObject({ code: 1001, msg: 'Please complete all fields' });
    expect(await amend({ new_password: 'Fresh-Desk-Pass-3', re_password: 'Fresh-Desk-Pass-4', auth_code: '123456' })).toMatchObject({
      msg: 'The two passwords do not match',
    });
    expect(await amend({ new_password: 'Fresh-Desk-Pass-3' })).toMatchObject({ msg: 'Please enter the verification code' });
    expect(await amend({ new_password: 'Fresh-Desk-Pass-3', auth_code: '123456', type: 'mobile' })).toMatchObject({
      msg: 'No phone number is linked to this account',
    });
    expect(await amend({ new_password: 'qwertyuiop', auth_code: '123456' })).toMatchObject({
      msg: 'This password is too common. Please choose a less predictable one.',
    });
    await sendCode(randomIp(), email, 2);
    const code = await latestCode(t, email);
    expect((await amend({ new_password: 'Fresh-Desk-Pass-3', auth_code: code })).code).toBe(1);
    expect((await call(t, 'GET', '/api/user/info', {}, { token })).code).toBe(1);
    expect((await call(t, 'GET', '/api/user/info', {}, { token: other })).code).toBe(999);
    expect((await login(randomIp(), { account: email, password: 'Fresh-Desk-Pass-3' })).code).toBe(1);
    const revoked = await t.ctx.db
      .select()
      .from(sessions)
      .where(
        sql`${sessions.userId} = ${(await call(t, 'GET', '/api/user/info', {}, { token })).data.id} and ${sessions.revokedAt} is not null`,
      );
    expect(revoked.length).toBe(1);
  });

  it('ends a session when its token expires or on logout', async () => {
    const { token, user } = await registerByEmail(t);
    const second = await registerByEmail(t);
    await t.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    expect((await call(t, 'GET', '/api/user/info', {}, { token })).code).toBe(999);
    expect((await call(t, 'POST', '/api/user/logout', {}, { token: second.token })).code).toBe(1);
    expect((await call(t, 'GET', '/api/user/info', {}, { token: second.token })).code).toBe(999);
  });

  it('lists area codes without the excluded countries', async () => {
    const res = await call(t, 'GET', '/api/default/area_list');
    expect(res.code).toBe(1);
    expect(res.data.length).toBeGreaterThan(200);
    expect(res.data.find((a: { code: string }) => a.code === 'GB')).toMatchObject({
      id: expect.any(Number),
      global_code: '+44',
      name: 'United Kingdom',
    });
    for (const code of ['KP', 'CN', 'VU', 'CU']) expect(res.data.some((a: { code: string }) => a.code === code)).toBe(false);
  });

  it('answers public settings only', async () => {
    expect(await call(t, 'GET', '/api/default/setting', { key: 'is_show_mobile' })).toMatchObject({ code: 1, data: '1' });
    expect(await call(t, 'GET', '/api/default/setting', { key: 'stop_out_level' })).toMatchObject({ code: 1004, data: null });
    expect(await call(t, 'GET', '/api/default/setting', { key: 'upload_url_secret' })).toMatchObject({ code: 1004, data: null });
    expect((await call(t, 'GET', '/api/default/setting', {})).code).toBe(1001);
    expect(await call(t, 'GET', '/api/basicSet/getBasicInfo')).toMatchObject({
      code: 1,
      data: { service_link: expect.any(String), service_link_type: 1, verify_reg_type: 1, trade_fee_type: 1 },
    });
  });

  it('keeps codes in the outbox without a provider, readable by the admin role only', async () => {
    const email = uniqueEmail('outbox');
    await callFrom(t, randomIp(), 'POST', '/api/notify/send_email', { to: email, type: 1 }, { lang: 'en' });
    const code = await latestCode(t, email);
    // Support could otherwise read a reset code and take the account over.
    expect((await call(t, 'GET', '/api/admin/outbox', {}, { token: await staffSession(t, ['support']) })).code).toBe(1003);
    const admin = await staffSession(t, ['admin']);
    const res = await call(t, 'GET', '/api/admin/outbox', { page: 1, limit: 5 }, { token: admin });
    expect(res.code).toBe(1);
    expect(res.data.total).toBeGreaterThanOrEqual(1);
    expect(res.data.data[0]).toMatchObject({
      channel: 'email',
      destination: email,
      subject: 'Your registration code',
      body: expect.stringContaining(code!),
    });
    expect((await call(t, 'GET', '/api/admin/outbox', {}, { token: await staffSession(t, ['content']) })).code).toBe(1003);
    const trader = await registerByEmail(t);
    expect((await call(t, 'GET', '/api/admin/outbox', {}, { token: trader.token })).code).toBe(999);
  });
});
