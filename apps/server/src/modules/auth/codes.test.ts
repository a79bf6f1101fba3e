import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { allowNewCode, callFrom, outboxCount, randomIp, STRONG_PASSWORD, uniqueEmail } from '../../../test/auth-helpers.ts';
import { settings, verificationCodes } from '../../platform/db/schema.ts';

interface Delivered {
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
async function startSmtp() {
  const inbox: Delivered[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        waiters.splice(0).forEach((w) => w());
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const messageTo = async (to: string) => {
    for (let i = 0; i < 100; i++) {
      const hit = inbox.find((m) => m.to.includes(to));
      if (hit) return hit;
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
    throw new Error(`no message to ${to}`);
  };
  return { url: `smtp://127.0.0.1:${port}`, inbox, messageTo, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The text of a single-part message, whatever transfer encoding the mailer chose. */
function decodeBody(raw: string): { subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(unfolded)?.[1]?.toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  const rawSubject = /^subject:\s*(.*)$/im.exec(unfolded)?.[1] ?? '';
  const subject = rawSubject.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
  return { subject, text };
}

/** A fake SMS provider on 127.0.0.1 that keeps the JSON it is sent. */
async function startSmsProvider() {
  const received: { auth: string | undefined; body: { to: string; text: string } }[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      received.push({ auth: req.headers.authorization, body: JSON.parse(data) as { to: string; text: string } });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/send`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.each(dbTargets)('codes and captchas on %s', (target) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let sms: Awaited<ReturnType<typeof startSmsProvider>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    sms = await startSmsProvider();
    t = await createTestApp(target, { SMTP_URL: smtp.url, SMS_URL: sms.url, SMS_KEY: 'sms-test-key' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await sms?.close();
  });

  const register = (params: Record<string, unknown>, lang = 'en') =>
    callFrom(
      t,
      randomIp(),
      'POST',
      '/api/user/register',
      { type: 'email', password: STRONG_PASSWORD, re_password: STRONG_PASSWORD, ...params },
      { lang },
    );
  const sendEmail = (to: string, type: number, lang = 'en', ip = randomIp()) =>
    callFrom(t, ip, 'POST', '/api/notify/send_email', { to, type }, { lang });

  it('emails a translated code through SMTP; registering with it succeeds', async () => {
    const email = uniqueEmail('smtp');
    expect(await sendEmail(email, 1)).toMatchObject({ code: 1 });
    const mail = decodeBody((await smtp.messageTo(email)).raw);
    expect(mail.subject).toBe('Your registration code');
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(mail.text).toContain(`Your verification code is ${code}. It is valid for 10 minutes`);
    expect((await register({ account: email, sms_code: code })).code).toBe(1);

    const hkEmail = uniqueEmail('smtp-hk');
    await sendEmail(hkEmail, 1, 'hk');
    const hk = decodeBody((await smtp.messageTo(hkEmail)).raw);
    expect(hk.subject).toBe('您的註冊驗證碼');
    expect(hk.text).toMatch(/^您的驗證碼為 \d{6}，10 分鐘內有效/);
    // With a provider configured nothing goes to the outbox.
    expect(await outboxCount(t, email)).toBe(0);
  });

  it('texts a code through the SMS provider and registers and logs in by mobile', async () => {
    const areas = await call(t, 'GET', '/api/default/area_list');
    const hk = areas.data.find((a: { code: string }) => a.code === 'HK');
    expect(hk).toMatchObject({ global_code: '+852' });
    const mobile = String(50_000_000 + Math.floor(Math.random() * 40_000_000));
    expect((await callFrom(t, randomIp(), 'POST', '/api/notify/send_sms', { to: mobile, area_id: hk.id, type: 1 })).code).toBe(1);
    await t.ctx.services.codes.settled();
    const sent = sms.received.find((r) => r.body.to === `+852${mobile}`);
    expect(sent?.auth).toBe('Bearer sms-test-key');
    const code = /\b(\d{6})\b/.exec(sent!.body.text)?.[1];
    const res = await register({ type: 'mobile', area_id: hk.id, mobile, sms_code: code });
    expect(res.code).toBe(1);
    expect(res.data.user).toMatchObject({ mobile, area_id: hk.id, email: '' });
    const login = (params: Record<string, unknown>) =>
      callFrom(t, randomIp(), 'POST', '/api/user/loginForU', { password: STRONG_PASSWORD, ...params });
    expect((await login({ account: mobile, login_type: 'mobile', area_id: hk.id })).code).toBe(1);
    expect((await login({ account: mobile })).code).toBe(1);
    expect((await callFrom(t, randomIp(), 'POST', '/api/notify/send_sms', { to: mobile, type: 1 }, { lang: 'en' })).msg).toBe(
      'Please choose your country or region code',
    );
  });

  it('makes the resend wait 60 s per destination, with a translated message', async () => {
    const email = uniqueEmail();
    expect((await sendEmail(email, 1)).code).toBe(1);
    const again = await sendEmail(email, 1);
    expect(again.code).toBe(0);
    expect(again.msg).toMatch(/^Please wait (59|60) s before requesting a new code$/);
    expect((await sendEmail(email, 2, 'hk')).msg).toMatch(/^請等待 (59|60) 秒後再獲取新的驗證碼$/);
    expect(await sendEmail('bad-address', 1)).toMatchObject({ code: 1001, msg: 'Please enter a valid email address' });
    expect(await sendEmail(email, 3)).toMatchObject({ code: 1001, msg: 'Unknown code purpose' });
  });

  it('limits code requests per IP', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) expect((await sendEmail(uniqueEmail(), 1, 'en', ip)).code).toBe(1);
    expect(await sendEmail(uniqueEmail(), 1, 'en', ip)).toMatchObject({
      code: 1029,
      msg: 'Too many requests. Please wait a moment and try again.',
    });
    expect((await sendEmail(uniqueEmail(), 1, 'en', randomIp())).code).toBe(1);
  });

  it('stores codes hashed, refuses an expired code, and a newer code replaces the older', async () => {
    const email = uniqueEmail();
    await sendEmail(email, 1);
    const first = decodeBody((await smtp.messageTo(email)).raw).text.match(/\b(\d{6})\b/)![1]!;
    const [row] = await t.ctx.db.select().from(verificationCodes).where(eq(verificationCodes.destination, email));
    expect(row!.codeHash).not.toContain(first);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(9.9 * 60_000);
    await t.ctx.db
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationCodes.destination, email));
    expect(await register({ account: email, sms_code: first })).toMatchObject({
      code: 0,
      msg: 'The verification code is wrong or has expired. Please request a new one.',
    });

    await allowNewCode(t, email);
    smtp.inbox.length = 0;
    await sendEmail(email, 1);
    const second = decodeBody((await smtp.messageTo(email)).raw).text.match(/\b(\d{6})\b/)![1]!;
    await allowNewCode(t, email);
    smtp.inbox.length = 0;
    await sendEmail(email, 1);
    const third = decodeBody((await smtp.messageTo(email)).raw).text.match(/\b(\d{6})\b/)![1]!;
    if (second !== third) expect((await register({ account: email, sms_code: second })).code).toBe(0);
    expect((await register({ account: email, sms_code: third })).code).toBe(1);
  });

  it('kills a code after 5 wrong tries, counting the right one among them', async () => {
    const wrongFor = (code: string) => (code === '000000' ? '000001' : '000000');
    const emailA = uniqueEmail();
    await sendEmail(emailA, 1);
    const codeA = decodeBody((await smtp.messageTo(emailA)).raw).text.match(/\b(\d{6})\b/)![1]!;
    for (let i = 0; i < 4; i++) expect((await register({ account: emailA, sms_code: wrongFor(codeA) })).code).toBe(0);
    expect((await register({ account: emailA, sms_code: codeA })).code).toBe(1);

    const emailB = uniqueEmail();
    await sendEmail(emailB, 1);
    const codeB = decodeBody((await smtp.messageTo(emailB)).raw).text.match(/\b(\d{6})\b/)![1]!;
    const guesses = await Promise.all(Array.from({ length: 5 }, () => register({ account: emailB, sms_code: wrongFor(codeB) })));
    expect(guesses.every((g) => g.code === 0)).toBe(true);
    expect(await register({ account: emailB, sms_code: codeB })).toMatchObject({
      code: 0,
      msg: 'The verification code is wrong or has expired. Please request a new one.',
    });
    const [row] = await t.ctx.db.select().from(verificationCodes).where(eq(verificationCodes.destination, emailB));
    expect(row!.attempts).toBe(5);
  });

  it('serves captcha images and, when verify_reg_type is 2, registers with a captcha instead of a code', async () => {
    for (const url of ['/api/user/captcha', '/api/captcha']) {
      const res = await call(t, 'GET', url);
      expect(res.code).toBe(1);
      expect(res.data.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(res.data.b64s).toMatch(/^data:image\/png;base64,/);
      const meta = await sharp(Buffer.from(res.data.b64s.split(',')[1], 'base64')).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 150, height: 50 });
    }
    const basic = async () => (await call(t, 'GET', '/api/basicSet/getBasicInfo')).data.verify_reg_type;
    expect(await basic()).toBe(1);
    await t.ctx.db.update(settings).set({ value: '2' }).where(eq(settings.key, 'verify_reg_type'));
    try {
      expect(await basic()).toBe(2);
      const captcha = await t.ctx.services.captcha.create('K7PX2');
      expect(await register({ account: uniqueEmail(), key: captcha.id })).toMatchObject({
        code: 1001,
        msg: 'Please enter the characters shown in the picture',
      });
      const wrong = await t.ctx.services.captcha.create('K7PX2');
      expect(await register({ account: uniqueEmail(), key: wrong.id, captcha: 'AAAAA' })).toMatchObject({
        code: 0,
        msg: 'The picture code is wrong or has expired. Please try a new one.',
      });
      // One try per captcha: the right answer after a wrong one is refused.
      expect((await register({ account: uniqueEmail(), key: wrong.id, captcha: 'K7PX2' })).code).toBe(0);
      const email = uniqueEmail();
      const ok = await register({ account: email, key: captcha.id, sms_code: 'k7px2' });
      expect(ok.code).toBe(1);
      const dup = await t.ctx.services.captcha.create('H8JK');
      expect(await register({ account: email.toUpperCase(), key: dup.id, captcha: 'H8JK' })).toMatchObject({
        code: 0,
        msg: 'This account is already registered. Please log in.',
      });
      expect((await register({ account: uniqueEmail(), key: captcha.id, captcha: 'K7PX2' })).code).toBe(0);
      const old = await t.ctx.services.captcha.create('MN3Q');
      t.ctx.services.captcha.now = () => new Date(Date.now() + 5 * 60_000 + 1000);
      expect((await register({ account: uniqueEmail(), key: old.id, captcha: 'MN3Q' })).msg).toBe(
        'The picture code is wrong or has expired. Please try a new one.',
      );
    } finally {
      t.ctx.services.captcha.now = () => new Date();
      await t.ctx.db.update(settings).set({ value: '1' }).where(eq(settings.key, 'verify_reg_type'));
    }
  });
});
