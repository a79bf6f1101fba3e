import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callFrom, randomIp } from '../../../test/auth-helpers.ts';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { sessions, staffAuditLog } from '../../platform/db/schema.ts';
import { hashToken } from '../auth/session-service.ts';
import { totpCode } from '../../platform/totp.ts';

describe.each(dbTargets)('staff, TOTP and audit log on %s', (target) => {
  let t: TestApp;
  let admin: string;
  // From a fresh address each time: the sign-in's per-address rate limit is not what these tests are about.
  const login = (email: string, password: string, totp?: string) =>
    callFrom(t, randomIp(), 'POST', '/api/admin/login', { email, password, totp }, { lang: 'en' });
  beforeAll(async () => {
    t = await createTestApp(target);
    admin = (await login('admin@test.local', 'admin-password-1')).data.token;
  });
  afterAll(async () => t?.close());

  it('creates staff, refuses a taken email, changes roles, and a disabled member is signed out', async () => {
    const created = await call(
      t,
      'POST',
      '/api/admin/staff/create',
      { email: 'Fin@Test.local', name: 'Fin', password: 'finance-pass-1', roles: 'finance,support' },
      { token: admin },
    );
    expect(created.code).toBe(1);
    expect(created.data).toMatchObject({ email: 'fin@test.local', roles: ['finance', 'support'], totp_enabled: false, status: 1 });
    const again = await call(
      t,
      'POST',
      '/api/admin/staff/create',
      { email: 'fin@test.local', name: 'X', password: 'finance-pass-1', roles: 'risk' },
      { token: admin, lang: 'en' },
    );
    expect(again).toMatchObject({ code: 0, msg: 'A staff account with this email already exists' });
    const badRole = await call(
      t,
      'POST',
      '/api/admin/staff/create',
      { email: 'x@test.local', name: 'X', password: 'finance-pass-1', roles: 'boss' },
      { token: admin, lang: 'en' },
    );
    expect(badRole).toMatchObject({ code: 1001, msg: 'Unknown staff role' });

    const fin = (await login('fin@test.local', 'finance-pass-1')).data.token as string;
    expect((await call(t, 'GET', '/api/admin/me', {}, { token: fin })).data.roles).toEqual(['finance', 'support']);
    const roles = await call(
      t,
      'POST',
      '/api/admin/staff/roles',
      { id: created.data.id, roles: JSON.stringify(['risk']) },
      { token: admin },
    );
    expect(roles.data.roles).toEqual(['risk']);
    // A role change ends the member's sessions; signed in again, the new role's limits apply.
    expect((await call(t, 'GET', '/api/admin/bank_wires', {}, { token: fin })).code).toBe(999);
    const risk = (await login('fin@test.local', 'finance-pass-1')).data.token as string;
    expect((await call(t, 'GET', '/api/admin/bank_wires', {}, { token: risk })).code).toBe(1003);

    const self = await call(t, 'POST', '/api/admin/staff/status', { id: 1, status: 0 }, { token: admin, lang: 'en' });
    expect(self.msg).toBe('You cannot disable your own account');
    expect((await call(t, 'POST', '/api/admin/staff/status', { id: created.data.id, status: 0 }, { token: admin })).data.status).toBe(0);
    expect((await call(t, 'GET', '/api/admin/me', {}, { token: risk })).code).toBe(999);
    expect((await login('fin@test.local', 'finance-pass-1')).code).toBe(0);

    const list = await call(t, 'GET', '/api/admin/staff/list', {}, { token: admin });
    expect(list.data.map((s: { email: string }) => s.email)).toEqual(['admin@test.local', 'fin@test.local']);
    const audit = await call(t, 'GET', '/api/admin/audit/list', { target_type: 'staff', target_id: created.data.id }, { token: admin });
    // Sign-ins are audited on the member too; the staff changes are what this checks.
    const changes = audit.data.data.filter((r: { action: string }) => !r.action.startsWith('staff.sign_'));
    expect(changes.map((r: { action: string }) => r.action)).toEqual(['staff.disable', 'staff.roles', 'staff.create']);
    expect(changes[1]).toMatchObject({
      staff_email: 'admin@test.local',
      before: { roles: ['finance', 'support'] },
      after: { roles: ['risk'] },
    });
  });

  it('enrols TOTP with a code; afterwards sign-in needs the current code', async () => {
    await call(
      t,
      'POST',
      '/api/admin/staff/create',
      { email: 'two@test.local', name: 'Two', password: 'two-factor-1', roles: 'support' },
      { token: admin },
    );
    const token = (await login('two@test.local', 'two-factor-1')).data.token as string;
    expect((await call(t, 'POST', '/api/admin/totp/enable', { code: '123456' }, { token, lang: 'en' })).msg).toBe(
      'Please start the two-factor setup first',
    );
    const setup = await call(t, 'POST', '/api/admin/totp/setup', {}, { token });
    expect(setup.data.otpauth_url).toContain(`secret=${setup.data.secret}`);
    const wrong = String((Number(totpCode(setup.data.secret)) + 500_000) % 1_000_000).padStart(6, '0');
    expect((await call(t, 'POST', '/api/admin/totp/enable', { code: wrong }, { token, lang: 'en' })).code).toBe(0);
    expect((await login('two@test.local', 'two-factor-1')).code).toBe(1);

    // One instant for the codes below, so a step boundary passing on a slow machine changes nothing.
    const at = Date.now();
    const enabled = await call(t, 'POST', '/api/admin/totp/enable', { code: totpCode(setup.data.secret, at) }, { token });
    expect(enabled.data.recovery_codes).toHaveLength(10);
    expect(
      (await call(t, 'GET', '/api/admin/staff/list', {}, { token: admin })).data.find(
        (s: { email: string }) => s.email === 'two@test.local',
      ).totp_enabled,
    ).toBe(true);
    expect((await call(t, 'POST', '/api/admin/totp/setup', {}, { token, lang: 'en' })).msg).toBe('Two-factor sign-in is already on');
    expect(await login('two@test.local', 'two-factor-1')).toMatchObject({ code: 1020, data: null });
    expect((await login('two@test.local', 'wrong-password', '')).code).toBe(0);
    expect((await login('two@test.local', 'two-factor-1', wrong)).code).toBe(0);
    // The enrolment used this step's code; the next step's code signs in (one step of clock drift allowed).
    expect((await login('two@test.local', 'two-factor-1', totpCode(setup.data.secret, at))).code).toBe(0);
    const ok = await login('two@test.local', 'two-factor-1', totpCode(setup.data.secret, at + 30_000));
    expect(ok.code).toBe(1);
    const rows = await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'staff.totp_enable'));
    expect(rows).toHaveLength(1);
  });

  it('ends a staff session when it expires', async () => {
    const token = (await login('admin@test.local', 'admin-password-1')).data.token as string;
    expect((await call(t, 'GET', '/api/admin/me', {}, { token })).code).toBe(1);
    await t.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect((await call(t, 'GET', '/api/admin/dashboard', {}, { token })).code).toBe(999);
  });

  it('keeps the audit log append-only', async () => {
    await expect(t.ctx.db.update(staffAuditLog).set({ action: 'edited' })).rejects.toThrow();
    await expect(t.ctx.db.delete(staffAuditLog)).rejects.toThrow();
  });
});
