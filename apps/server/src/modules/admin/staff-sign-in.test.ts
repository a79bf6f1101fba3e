import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_TOTP_ROLES_DEFAULT } from '@tp/contract/schemas/admin';
import { callFrom, randomIp, uniqueEmail } from '../../../test/auth-helpers.ts';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { sessions, staff, staffRecoveryCodes } from '../../platform/db/schema.ts';
import { totpCode } from '../../platform/totp.ts';
import { hashPassword } from '../auth/password.ts';

const PASSWORD = 'staff-password-1';

describe.each(dbTargets)('staff sign-in: per-account throttle, required TOTP, one use per code on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { STAFF_TOTP_ROLES: STAFF_TOTP_ROLES_DEFAULT });
  });
  afterAll(async () => t?.close());

  const login = (params: Record<string, string | undefined>) => callFrom(t, randomIp(), 'POST', '/api/admin/login', params, { lang: 'en' });
  const member = async (roles: string[]) => {
    const email = uniqueEmail('staff');
    const [row] = await t.ctx.db
      .insert(staff)
      .values({ email, name: 'Member', passwordHash: await hashPassword(PASSWORD), roles })
      .returning();
    return { email, id: row!.id };
  };
  const staffSessions = async (id: number) => (await t.ctx.db.select().from(sessions).where(eq(sessions.staffId, id))).length;
  /** Signs a money role in for the first time: the setup answer, then the code that turns TOTP on. */
  const enrol = async (roles: string[]) => {
    const m = await member(roles);
    const setup = await login({ email: m.email, password: PASSWORD });
    const secret = setup.data.secret as string;
    const code = totpCode(secret);
    const first = await login({ email: m.email, password: PASSWORD, totp: code });
    expect(first.code).toBe(1);
    return { ...m, secret, code, recoveryCodes: first.data.recovery_codes as string[] };
  };

  it('refuses the right password after five wrong ones for the account, from five addresses', async () => {
    const { email } = await member(['support']);
    for (let i = 0; i < 5; i++)
      expect(await login({ email, password: `wrong-guess-${i}` })).toMatchObject({ code: 0, msg: 'Incorrect account or password' });
    expect(await login({ email, password: PASSWORD })).toMatchObject({
      code: 0,
      msg: 'Too many failed attempts. Please try again in 15 minutes.',
    });
    // Another account is not affected.
    expect((await login({ email: (await member(['support'])).email, password: PASSWORD })).code).toBe(1);
  });

  it('a member whose roles move money sets TOTP up at the first sign-in and gets ten one-time recovery codes', async () => {
    for (const roles of [['finance'], ['risk'], ['admin', 'support']]) {
      const m = await member(roles);
      const setup = await login({ email: m.email, password: PASSWORD });
      expect(setup).toMatchObject({
        code: 1021,
        msg: expect.stringMatching(/two-factor sign-in/),
        data: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/) },
      });
      expect(setup.data.otpauth_url).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]{32}.*digits=6/);
      expect(await staffSessions(m.id)).toBe(0);
      // Asking again shows a fresh secret (one read earlier cannot be confirmed); a wrong code or password gets nothing.
      const earlier = setup.data.secret as string;
      setup.data = (await login({ email: m.email, password: PASSWORD })).data;
      expect(setup.data.secret).not.toBe(earlier);
      expect((await login({ email: m.email, password: PASSWORD, totp: totpCode(earlier) })).code).toBe(0);
      const wrong = String((Number(totpCode(setup.data.secret)) + 1) % 1_000_000).padStart(6, '0');
      expect(await login({ email: m.email, password: PASSWORD, totp: wrong })).toMatchObject({
        code: 0,
        msg: expect.stringMatching(/not correct/),
      });
      expect((await login({ email: m.email, password: 'not-the-password', totp: totpCode(setup.data.secret) })).code).toBe(0);

      const first = await login({ email: m.email, password: PASSWORD, totp: totpCode(setup.data.secret) });
      expect(first).toMatchObject({ code: 1, data: { staff: { id: m.id, roles } } });
      expect(first.data.recovery_codes).toHaveLength(10);
      expect(new Set(first.data.recovery_codes).size).toBe(10);
      expect((await call(t, 'GET', '/api/admin/me', {}, { token: first.data.token })).code).toBe(1);
      // Stored hashed only.
      const stored = await t.ctx.db.select().from(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, m.id));
      expect(stored).toHaveLength(10);
      for (const code of first.data.recovery_codes) expect(stored.some((r) => r.codeHash.includes(code.replace('-', '')))).toBe(false);
      // From now on the password alone asks for the code.
      expect(await login({ email: m.email, password: PASSWORD })).toMatchObject({ code: 1020, data: null });
    }
  });

  it('support and content staff may sign in with the password alone', async () => {
    expect((await login({ email: (await member(['support', 'content'])).email, password: PASSWORD })).code).toBe(1);
  });

  it('a TOTP code signs in once: the same code, or an earlier step, is refused; concurrent uses give one session', async () => {
    const m = await enrol(['finance']);
    // The enrolment consumed its code's step: the same code is refused (also once the clock has moved to the next step).
    expect(await login({ email: m.email, password: PASSWORD, totp: m.code })).toMatchObject({
      code: 0,
      msg: expect.stringMatching(/not correct/),
    });
    const next = totpCode(m.secret, Date.now() + 30_000);
    const answers = await Promise.all([0, 1, 2].map(() => login({ email: m.email, password: PASSWORD, totp: next })));
    expect(answers.map((a) => a.code).sort()).toEqual([0, 0, 1]);
    expect(await staffSessions(m.id)).toBe(2);
    expect((await login({ email: m.email, password: PASSWORD, totp: next })).code).toBe(0);
    expect((await login({ email: m.email, password: PASSWORD, totp: totpCode(m.secret, Date.now() - 30_000) })).code).toBe(0);
  });

  it('a recovery code signs in once instead of the TOTP code; renewing them ends the old ones', async () => {
    const m = await enrol(['risk']);
    const [code, other] = m.recoveryCodes as [string, string];
    expect((await login({ email: m.email, password: PASSWORD, recovery_code: code })).code).toBe(1);
    expect(await login({ email: m.email, password: PASSWORD, recovery_code: code })).toMatchObject({
      code: 0,
      msg: 'This recovery code is wrong or has already been used',
    });
    expect((await login({ email: m.email, password: 'not-the-password', recovery_code: other })).code).toBe(0);
    const signedIn = await login({ email: m.email, password: PASSWORD, recovery_code: other.toUpperCase() });
    expect(signedIn.code).toBe(1);

    const renewed = await call(
      t,
      'POST',
      '/api/admin/totp/recovery_codes',
      { code: totpCode(m.secret, Date.now() + 30_000) },
      { token: signedIn.data.token },
    );
    expect(renewed.data.recovery_codes).toHaveLength(10);
    expect((await login({ email: m.email, password: PASSWORD, recovery_code: m.recoveryCodes[2] })).code).toBe(0);
    expect((await login({ email: m.email, password: PASSWORD, recovery_code: renewed.data.recovery_codes[0] })).code).toBe(1);
  });
});
