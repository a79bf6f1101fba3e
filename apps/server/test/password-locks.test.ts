import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANG_CODES } from '@tp/contract/languages';
import { outbox, staff } from '../src/platform/db/schema.ts';
import { hashPassword } from '../src/modules/auth/password.ts';
import { catalogueOf } from '../src/http/i18n.ts';
import { allowNewCode, callFrom, latestCode, randomIp, registerByEmail, uniqueEmail } from './auth-helpers.ts';
import { createTestApp, dbTargets, type TestApp } from './test-app.ts';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A catalogue message with its {{minutes}} filled by any number (with its unit word where the template asks for one). */
const message = (lang: (typeof LANG_CODES)[number], key: string) =>
  new RegExp(
    `^${escape(catalogueOf(lang)[key]!).replace('\\{\\{minutes\\}\\}', '\\d+').replace('\\{\\{minutes\\|minute\\}\\}', '(?:\\d+ )?\\S+')}$`,
  );

/**
 * Password guessing as a hostile client would do it: from a new address each time (so no per-address
 * wait ever starts), solving the captcha, spelling the account differently, or all at once in
 * parallel. Five wrong passwords of one account lock its sign-in, the right password too, with a
 * translated message, and its owner gets one e-mail. Staff the same.
 */
describe.each(dbTargets)('passwords lock after 5 failures per account on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => t?.close());

  const solved = async () => ({ key: (await t.ctx.services.captcha.create('QWER')).id, captcha: 'QWER' });
  const login = async (account: string, password: string, lang = 'en') =>
    callFrom(t, randomIp(), 'POST', '/api/user/loginForU', { login_type: 'email', account, password, ...(await solved()) }, { lang });
  const lockMails = async (email: string) => {
    await t.ctx.services.codes.settled();
    return t.ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.destination, email), eq(outbox.subject, 'Failed logins to your account')));
  };

  it('five wrong passwords from five addresses, any spelling, lock the account: the right password is refused in every language; one e-mail', async () => {
    const { email, password } = await registerByEmail(t);
    const spellings = [email, email.toUpperCase(), ` ${email} `, `\t${email.toUpperCase()}`, email];
    for (const [i, spelling] of spellings.entries())
      expect(await login(spelling, `Guess-${i}-wrong`)).toMatchObject({ code: 0, msg: 'Incorrect account or password' });
    const refused = await login(email, password);
    expect(refused).toMatchObject({
      code: 0,
      msg: expect.stringMatching(
        /^Too many wrong passwords\. Signing in to this account is locked; please try again in 1[45] minutes or reset your password\.$/,
      ),
    });
    expect(refused.data).toBeFalsy();
    for (const lang of LANG_CODES) {
      const answer = await login(email, password, lang);
      expect(answer.code).toBe(0);
      expect(answer.msg).toMatch(message(lang, 'login_locked'));
      if (lang !== 'en') expect(answer.msg).not.toMatch(message('en', 'login_locked'));
    }
    const mails = await lockMails(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toMatch(/wrong password .* locked for 15 minutes/);
  });

  it('a burst of 30 parallel wrong passwords from 30 addresses gets 5 checked; the rest and the right one are refused', async () => {
    const { email, password } = await registerByEmail(t);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(email, `Burst-${i}-wrong`)));
    expect(answers.filter((a) => a.msg === 'Incorrect account or password')).toHaveLength(5);
    expect(answers.filter((a) => a.msg.startsWith('Too many wrong passwords'))).toHaveLength(25);
    expect((await login(email, password)).msg).toMatch(/^Too many wrong passwords/);
    expect(await lockMails(email)).toHaveLength(1);
  });

  it('an unknown account answers the same: five wrong passwords, then the lock message', async () => {
    const email = uniqueEmail('nobody');
    for (let i = 0; i < 5; i++) expect((await login(email, `Guess-${i}-wrong`)).msg).toBe('Incorrect account or password');
    expect((await login(email, 'Guess-6-wrong')).msg).toMatch(/^Too many wrong passwords/);
  });

  it('the owner ends a lock by resetting the password with a code', async () => {
    const { email } = await registerByEmail(t);
    for (let i = 0; i < 5; i++) await login(email, `Guess-${i}-wrong`);
    expect((await login(email, 'Guess-6-wrong')).msg).toMatch(/^Too many wrong passwords/);
    await allowNewCode(t, email);
    expect((await callFrom(t, randomIp(), 'POST', '/api/notify/send_email', { to: email, type: 2 })).code).toBe(1);
    const code = await latestCode(t, email);
    const reset = await callFrom(t, randomIp(), 'POST', '/api/user/forget_password', {
      type: 'email',
      account: email,
      auth_code: code,
      new_password: 'Fresh-Pass-7531',
      secondary_password: 'Fresh-Pass-7531',
    });
    expect(reset.code).toBe(1);
    expect((await login(email, 'Fresh-Pass-7531')).code).toBe(1);
  });

  it('staff: five wrong passwords from five addresses lock the member, the right password too; the member gets one e-mail', async () => {
    const email = uniqueEmail('staffer');
    await t.ctx.db.insert(staff).values({ email, name: 'S', passwordHash: await hashPassword('staff-password-1'), roles: ['support'] });
    const signIn = (password: string, lang = 'en') =>
      callFrom(t, randomIp(), 'POST', '/api/admin/login', { email: email.toUpperCase(), password }, { lang });
    for (let i = 0; i < 5; i++) expect((await signIn(`wrong-password-${i}`)).code).toBe(0);
    expect(await signIn('staff-password-1')).toMatchObject({
      code: 0,
      msg: expect.stringMatching(/^Too many failed attempts\. Please try again in 1[45] minutes\.$/),
    });
    for (const lang of LANG_CODES) expect((await signIn('staff-password-1', lang)).msg).toMatch(message(lang, 'login_throttled'));
    const mails = await lockMails(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toMatch(/locked for 15 minutes/);
  });
});
