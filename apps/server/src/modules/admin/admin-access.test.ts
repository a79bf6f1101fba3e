import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSession } from '../../../test/auth-helpers.ts';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { insertUser } from '../auth/user-repository.ts';

type Method = 'GET' | 'POST';
/** Every call this module adds, with a staff role that must be refused (null: any staff member may use it). */
const CALLS: [Method, string, string | null][] = [
  ['POST', '/api/admin/totp/setup', null],
  ['POST', '/api/admin/totp/enable', null],
  ['GET', '/api/admin/dashboard', null],
  ['GET', '/api/admin/desk/exposure', 'support'],
  ['GET', '/api/admin/staff/list', 'finance'],
  ['POST', '/api/admin/staff/create', 'risk'],
  ['POST', '/api/admin/staff/roles', 'support'],
  ['POST', '/api/admin/staff/status', 'content'],
  ['GET', '/api/admin/audit/list', 'finance'],
  ['GET', '/api/admin/users/search', 'content'],
  ['GET', '/api/admin/users/profile', 'content'],
  ['GET', '/api/admin/users/sessions', 'content'],
  ['POST', '/api/admin/users/sessions/end', 'content'],
  ['GET', '/api/admin/users/ledger', 'content'],
  ['GET', '/api/admin/users/orders', 'content'],
  ['POST', '/api/admin/users/status', 'content'],
  ['POST', '/api/admin/users/adjust_balance', 'support'],
  ['GET', '/api/admin/symbols', 'finance'],
  ['POST', '/api/admin/symbols/save', 'support'],
  ['GET', '/api/admin/categories', 'content'],
  ['POST', '/api/admin/categories/save', 'finance'],
  ['GET', '/api/admin/positions', 'support'],
  ['POST', '/api/admin/positions/close', 'finance'],
  ['GET', '/api/admin/deposit_networks', 'risk'],
  ['POST', '/api/admin/deposit_networks/save', 'support'],
  ['POST', '/api/admin/deposit_networks/delete', 'content'],
  ['GET', '/api/admin/bank_wires', 'risk'],
  ['POST', '/api/admin/bank_wires/save', 'support'],
  ['POST', '/api/admin/bank_wires/delete', 'content'],
  ['GET', '/api/admin/withdraw_currencies', 'risk'],
  ['POST', '/api/admin/withdraw_currencies/save', 'support'],
  ['POST', '/api/admin/withdraw_currencies/delete', 'content'],
  ['GET', '/api/admin/changes/list', 'support'],
  ['POST', '/api/admin/changes/approve', 'finance'],
  ['POST', '/api/admin/changes/reject', 'content'],
];

describe.each(dbTargets)('admin access on %s', (target) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let trader: string;
  beforeAll(async () => {
    t = await createTestApp(target);
    for (const role of ['finance', 'risk', 'support', 'content']) tokens[role] = await staffSession(t, [role]);
    const user = await insertUser(t.ctx.db, { email: 'access-trader@example.com' });
    trader = await t.ctx.services.sessions.create({ userId: user.id });
  });
  afterAll(async () => t?.close());

  it('refuses a trader token (999) and no token (999) on every call', async () => {
    for (const [method, url] of CALLS) {
      expect([url, (await call(t, method, url, {}, { token: trader })).code]).toEqual([url, 999]);
      expect([url, (await call(t, method, url)).code]).toEqual([url, 999]);
    }
  });

  it('refuses staff without the role (1003) with a translated message', async () => {
    for (const [method, url, refused] of CALLS) {
      if (!refused) continue;
      const res = await call(t, method, url, {}, { token: tokens[refused], lang: 'en' });
      expect([url, res.code]).toEqual([url, 1003]);
      expect(res.msg).not.toBe('forbidden');
    }
  });

  it('lets the role (and any staff for the dashboard) in', async () => {
    expect((await call(t, 'GET', '/api/admin/dashboard', {}, { token: tokens.content })).code).toBe(1);
    expect((await call(t, 'GET', '/api/admin/users/search', {}, { token: tokens.support })).code).toBe(1);
    expect((await call(t, 'GET', '/api/admin/symbols', {}, { token: tokens.risk })).code).toBe(1);
    expect((await call(t, 'GET', '/api/admin/bank_wires', {}, { token: tokens.finance })).code).toBe(1);
  });
});
