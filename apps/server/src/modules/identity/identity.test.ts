import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { registerByEmail, staffSession } from '../../../test/auth-helpers.ts';
import { staffAuditLog } from '../../platform/db/schema.ts';
import { insertUser } from '../auth/user-repository.ts';

describe.each(dbTargets)('identity verification on %s', (target) => {
  let t: TestApp;
  let reviewer: string;
  beforeAll(async () => {
    t = await createTestApp(target);
    reviewer = await staffSession(t, ['risk']);
  });
  afterAll(async () => t?.close());

  /** Uploads a small distinct PNG as the user and answers its url. */
  const uploadAs = async (token: string, shade: number) => {
    const data = await sharp({ create: { width: 32, height: 20, channels: 3, background: { r: shade, g: 80, b: 160 } } })
      .png()
      .toBuffer();
    const boundary = 'identity-test-boundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="id.png"\r\ncontent-type: image/png\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/common/image_upload',
      headers: { authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    return (res.json() as { data: { url: string } }).data.url;
  };
  const newTrader = async () => {
    const u = await registerByEmail(t);
    return { ...u, front: await uploadAs(u.token, 10), back: await uploadAs(u.token, 200) };
  };
  const submit = (token: string, params: Record<string, unknown>, lang = 'en') =>
    call(t, 'POST', '/api/user_real/real_name', params, { token, lang });
  const center = async (token: string) => (await call(t, 'GET', '/api/user_real/center', {}, { token })).data;
  const admin = (method: 'GET' | 'POST', path: string, params: Record<string, unknown>, token = reviewer) =>
    call(t, method, `/api/admin/identity/${path}`, params, { token, lang: 'en' });

  it('shows status 0 before anything is submitted', async () => {
    const u = await registerByEmail(t);
    expect(await center(u.token)).toEqual({ review_status: 0, reject_reason: '', name: '', card_id: '', front_pic: '', reverse_pic: '' });
    expect(await t.ctx.services.identity.isVerified(u.user.id)).toBe(false);
  });

  it('checks the form with the right messages', async () => {
    const u = await newTrader();
    const other = await newTrader();
    const full = { name: 'Chan Tai Man', card_id: 'A123456(7)', front_pic: u.front, reverse_pic: u.back };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...full, name: '  ' }, 'Please enter your name'],
      [{ ...full, card_id: undefined }, 'Please enter your ID number'],
      [{ ...full, reverse_pic: '' }, 'Please upload the front and the back of your ID'],
      [{ ...full, front_pic: other.front }, 'Please upload the ID images again'],
      [{ ...full, front_pic: 'https://evil.example/x.png' }, 'Please upload the ID images again'],
      [{ ...full, front_pic: '/uploads/../../etc/passwd' }, 'Please upload the ID images again'],
      [{ ...full, reverse_pic: u.front }, 'The front and the back must be different images'],
    ];
    for (const [params, msg] of cases) {
      const en = await submit(u.token, params);
      expect(en, msg).toMatchObject({ msg });
      expect(en.code).not.toBe(1);
      expect((await submit(u.token, params, 'hk')).msg).not.toBe(msg);
    }
    expect((await center(u.token)).review_status).toBe(0);
  });

  it('goes under review on submit, refuses resubmission, and staff reject then approve a resubmission', async () => {
    const u = await newTrader();
    expect((await submit(u.token, { name: 'Chan Tai Man', card_id: 'A1234567', front_pic: u.front, reverse_pic: u.back })).code).toBe(1);
    const pending = await center(u.token);
    expect(pending).toMatchObject({ review_status: 1, reject_reason: '', name: 'Chan Tai Man', card_id: 'A1234567' });
    expect(pending.front_pic).toMatch(/^\/uploads\/[\w-]+\.png\?exp=\d+&sig=/);
    expect((await t.app.inject({ method: 'GET', url: pending.front_pic })).statusCode).toBe(200);
    expect(await submit(u.token, { name: 'Someone Else', card_id: 'Z9', front_pic: u.front, reverse_pic: u.back })).toMatchObject({
      code: 0,
      msg: 'Your identity is under review',
    });

    const listed = await admin('GET', 'list', { status: 1 });
    expect(listed.data.data.map((r: { user_id: number }) => r.user_id)).toContain(u.user.id);
    const detail = await admin('GET', 'detail', { user_id: u.user.id });
    expect(detail.data).toMatchObject({ user_id: u.user.id, uid: u.user.uid, email: u.email, review_status: 1, name: 'Chan Tai Man' });
    expect((await t.app.inject({ method: 'GET', url: detail.data.reverse_pic })).statusCode).toBe(200);

    expect(await admin('POST', 'reject', { user_id: u.user.id })).toMatchObject({
      code: 1001,
      msg: 'Please give a reason for the rejection',
    });
    const rejected = await admin('POST', 'reject', { user_id: u.user.id, reason: 'The photo is blurred' });
    expect(rejected.data).toMatchObject({ review_status: 3, reject_reason: 'The photo is blurred' });
    expect(await center(u.token)).toMatchObject({ review_status: 3, reject_reason: 'The photo is blurred' });
    expect(await admin('POST', 'approve', { user_id: u.user.id })).toMatchObject({
      code: 0,
      msg: 'This submission is not waiting for review',
    });

    const back2 = await uploadAs(u.token, 120);
    expect((await submit(u.token, { name: 'Chan Tai Man', card_id: 'A1234567', front_pic: u.front, reverse_pic: back2 })).code).toBe(1);
    expect(await center(u.token)).toMatchObject({ review_status: 1, reject_reason: '' });
    expect((await admin('POST', 'approve', { user_id: u.user.id })).data).toMatchObject({ review_status: 2 });
    expect(await center(u.token)).toMatchObject({ review_status: 2 });
    expect(await t.ctx.services.identity.isVerified(u.user.id)).toBe(true);
    expect(await submit(u.token, { name: 'X', card_id: 'Y', front_pic: u.front, reverse_pic: back2 })).toMatchObject({
      code: 0,
      msg: 'Your identity is already verified',
    });
    expect(await admin('POST', 'reject', { user_id: u.user.id, reason: 'late' })).toMatchObject({
      code: 0,
      msg: 'This submission is not waiting for review',
    });

    const audit = await t.ctx.db
      .select()
      .from(staffAuditLog)
      .where(and(eq(staffAuditLog.targetType, 'user'), eq(staffAuditLog.targetId, String(u.user.id))));
    expect(audit.map((a) => a.action)).toEqual(['identity.reject', 'identity.approve']);
    expect(audit[0]).toMatchObject({ before: { review_status: 1 }, after: { review_status: 3, reject_reason: 'The photo is blurred' } });
  });

  it('approves a submission once even when two reviewers click together', async () => {
    const u = await newTrader();
    await submit(u.token, { name: 'Lee Siu Ming', card_id: 'B7654321', front_pic: u.front, reverse_pic: u.back });
    const second = await staffSession(t, ['support']);
    const results = await Promise.all([
      admin('POST', 'approve', { user_id: u.user.id }),
      admin('POST', 'reject', { user_id: u.user.id, reason: 'dup' }, second),
    ]);
    expect(results.filter((r) => r.code === 1)).toHaveLength(1);
    const audit = await t.ctx.db
      .select()
      .from(staffAuditLog)
      .where(eq(staffAuditLog.targetId, String(u.user.id)));
    expect(audit).toHaveLength(1);
  });

  it('keeps reviews to staff with the risk, finance or support role; decisions to risk and finance', async () => {
    const u = await registerByEmail(t);
    const content = await staffSession(t, ['content']);
    expect(await admin('GET', 'list', {}, content)).toMatchObject({ code: 1003 });
    expect(await admin('POST', 'approve', { user_id: u.user.id }, content)).toMatchObject({ code: 1003 });
    // Support answers users about their check, but cannot pass one (it could otherwise vouch for an account it took over).
    const support = await staffSession(t, ['support']);
    expect((await admin('GET', 'list', {}, support)).code).toBe(1);
    expect(await admin('POST', 'approve', { user_id: u.user.id }, support)).toMatchObject({ code: 1003 });
    expect((await admin('GET', 'list', {}, await staffSession(t, ['finance']))).code).toBe(1);
    expect(await admin('GET', 'list', {}, u.token)).toMatchObject({ code: 999 });
    const root = (await call(t, 'POST', '/api/admin/login', { email: 'admin@test.local', password: 'admin-password-1' })).data.token;
    expect((await admin('GET', 'list', {}, root)).code).toBe(1);
    expect(await admin('GET', 'detail', { user_id: u.user.id })).toMatchObject({ code: 1004 });
  });

  it('refuses demo users with the only-real-account message', async () => {
    const demo = await insertUser(t.ctx.db, { isDemo: true, demoId: `demo-id-${Date.now()}` });
    const token = await t.ctx.services.sessions.create({ userId: demo.id });
    const only = { code: 1010, msg: 'This feature is only for real accounts. Please register or log into a real account.' };
    expect(await call(t, 'GET', '/api/user_real/center', {}, { token, lang: 'en' })).toMatchObject(only);
    expect(await submit(token, { name: 'Demo', card_id: '1', front_pic: 'a', reverse_pic: 'b' })).toMatchObject(only);
  });
});
