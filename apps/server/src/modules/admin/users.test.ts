import { and, eq } from 'drizzle-orm';
import { dec } from '@tp/contract/decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSession } from '../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { staffAuditLog } from '../../platform/db/schema.ts';
import { houseBalance, newUser } from '../funding/test-helpers.ts';
import { expectAuditClean, tradingApp } from '../../../test/trading/test-kit.ts';

describe.each(dbTargets)('back office users on %s', (target) => {
  let t: TestApp;
  let finance: string;
  let support: string;
  beforeAll(async () => {
    t = await tradingApp(target);
    finance = await staffSession(t, ['finance']);
    support = await staffSession(t, ['support']);
  });
  afterAll(async () => t?.close());

  it('finds users by email, uid or id and shows the profile with balances', async () => {
    const u = await newUser(t, { balance: '250.5' });
    const profile = await call(t, 'GET', '/api/admin/users/profile', { user_id: u.id }, { token: support });
    expect(profile.data).toMatchObject({
      id: u.id,
      is_demo: 0,
      status: 1,
      review_status: 2,
      balance: '250.500000',
      lock_balance: '0.000000',
    });
    for (const q of [profile.data.email.slice(0, 8).toUpperCase(), profile.data.uid, String(u.id)]) {
      const found = await call(t, 'GET', '/api/admin/users/search', { q }, { token: support });
      expect(found.data.data.map((r: { id: number }) => r.id)).toContain(u.id);
    }
    const none = await call(t, 'GET', '/api/admin/users/search', { q: 'nobody-%' }, { token: support });
    expect(none.data).toEqual({ data: [], total: 0 });
    expect((await call(t, 'GET', '/api/admin/users/profile', { user_id: 99999 }, { token: support })).code).toBe(1004);
  });

  it('lists and ends sessions; disabling ends them all and enabling lets the user sign in again', async () => {
    const u = await newUser(t);
    const second = await t.ctx.services.sessions.create({ userId: u.id });
    const sessions = await call(t, 'GET', '/api/admin/users/sessions', { user_id: u.id }, { token: support });
    expect(sessions.data).toHaveLength(2);
    const one = sessions.data[0];
    await call(t, 'POST', '/api/admin/users/sessions/end', { user_id: u.id, session_id: one.id }, { token: support });
    expect((await call(t, 'GET', '/api/admin/users/sessions', { user_id: u.id }, { token: support })).data).toHaveLength(1);
    await call(t, 'POST', '/api/admin/users/sessions/end', { user_id: u.id }, { token: support });
    expect((await call(t, 'GET', '/api/user/info', {}, { token: second })).code).toBe(999);

    const fresh = await t.ctx.services.sessions.create({ userId: u.id });
    const disabled = await call(t, 'POST', '/api/admin/users/status', { user_id: u.id, status: 0 }, { token: support });
    expect(disabled.data.status).toBe(0);
    expect((await call(t, 'GET', '/api/user/info', {}, { token: fresh })).code).toBe(999);
    await call(t, 'POST', '/api/admin/users/status', { user_id: u.id, status: 1 }, { token: support });
    const later = await t.ctx.services.sessions.create({ userId: u.id });
    expect((await call(t, 'GET', '/api/user/info', {}, { token: later })).code).toBe(1);
    const audit = await t.ctx.db
      .select()
      .from(staffAuditLog)
      .where(and(eq(staffAuditLog.targetType, 'user'), eq(staffAuditLog.targetId, String(u.id))));
    expect(audit.map((a) => a.action)).toEqual(['user.end_sessions', 'user.end_sessions', 'user.disable', 'user.enable']);
  });

  it('adjusts a balance through one ledger transaction, once per key, never below zero', async () => {
    const u = await newUser(t);
    const houseBefore = await houseBalance(t, 'adjustment');
    const adjust = (amount: string, key: string, reason = 'goodwill') =>
      call(t, 'POST', '/api/admin/users/adjust_balance', { user_id: u.id, amount, reason, key }, { token: finance, lang: 'en' });
    const credits = await Promise.all([
      adjust('100.25', 'key-credit-1'),
      adjust('100.25', 'key-credit-1'),
      adjust('100.25', 'key-credit-1'),
    ]);
    expect(credits.every((r) => r.code === 1)).toBe(true);
    expect(credits.filter((r) => !r.data.duplicate)).toHaveLength(1);
    expect((await adjust('-30.000001', 'key-debit-1')).data).toMatchObject({ balance: '70.249999', duplicate: false });
    expect(await adjust('-70.25', 'key-debit-2')).toMatchObject({ code: 0, msg: 'The adjustment would make the balance negative' });
    expect((await adjust('0', 'key-zero-1')).code).toBe(1001);
    expect((await adjust('1e3', 'key-exp-1')).code).toBe(1001);
    expect((await adjust('5', 'key-noreason', '')).code).toBe(1001);
    expect((await call(t, 'GET', '/api/admin/users/profile', { user_id: u.id }, { token: finance })).data.balance).toBe('70.249999');
    expect(
      dec(await houseBalance(t, 'adjustment'))
        .minus(houseBefore)
        .toFixed(6),
    ).toBe('-70.249999');

    const ledger = await call(t, 'GET', '/api/admin/users/ledger', { user_id: u.id }, { token: finance });
    expect(ledger.data.total).toBe(2);
    expect(ledger.data.data[0]).toMatchObject({ account: 'cash', amount: '-30.000001', type: 'adjustment', memo: 'goodwill' });
    const audit = await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'user.adjust_balance'));
    expect(audit.filter((a) => a.targetId === String(u.id))).toHaveLength(2);
    await expectAuditClean(t);
  });

  it('scopes adjustment keys to the user; the same key with other terms is refused, not a repeat', async () => {
    const [a, b] = [await newUser(t), await newUser(t)];
    const adjust = (userId: number, amount: string, key: string, reason = 'goodwill') =>
      call(t, 'POST', '/api/admin/users/adjust_balance', { user_id: userId, amount, reason, key }, { token: finance, lang: 'en' });
    const balanceOf = async (userId: number) =>
      (await call(t, 'GET', '/api/admin/users/profile', { user_id: userId }, { token: finance })).data.balance;

    expect((await adjust(b.id, '10', 'shared-key-1')).data).toMatchObject({ balance: '10.000000', duplicate: false });
    expect((await adjust(a.id, '10', 'shared-key-1')).data).toMatchObject({ balance: '10.000000', duplicate: false });
    expect((await adjust(a.id, '10', 'shared-key-1')).data).toMatchObject({ balance: '10.000000', duplicate: true });
    const reused = [await adjust(a.id, '25', 'shared-key-1'), await adjust(a.id, '10', 'shared-key-1', 'another reason')];
    for (const answer of reused) {
      expect(answer).toMatchObject({ code: 0, msg: 'This request key was already used for a different adjustment; start a new request' });
    }
    expect([await balanceOf(a.id), await balanceOf(b.id)]).toEqual(['10.000000', '10.000000']);
    await expectAuditClean(t);
  });
});
