import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { pushesOf } from '../../../test/trading/test-kit.ts';
import { depositNetworks, identityVerifications, withdrawCurrencies } from '../../platform/db/schema.ts';
import { newUser, staffToken, uploaded, type TestUser } from './test-helpers.ts';

const en = { lang: 'en' };
const TRC20_ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

/**
 * Account events in the trader's notifications (issue 36, defect 6): a deposit approved or rejected, a
 * withdrawal paid or rejected, identity verified or rejected and a support reply are listed by
 * /v1/api/forex/notices and pushed as NOTICE, to that trader only.
 */
describe.each(dbTargets)('account notices on %s', (target) => {
  let t: TestApp;
  let admin: string;
  let usdtTrc20: number;
  let usdtWithdraw: number;

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await staffToken(t, ['admin']);
    const networks = await t.ctx.db.select().from(depositNetworks);
    usdtTrc20 = networks.find((n) => n.currencyCode === 'USDT' && n.protocolCode === 'TRC20')!.id;
    usdtWithdraw = (await t.ctx.db.select().from(withdrawCurrencies)).find((c) => c.code === 'USDT' && c.protocol === 'TRC20')!.id;
  });
  afterAll(async () => t?.close());

  const notices = async (u: TestUser) => (await call(t, 'GET', '/v1/api/forex/notices', { page: 1 }, { token: u.token, ...en })).data;
  const staffCall = (path: string, params: Record<string, unknown>) => call(t, 'POST', path, params, { token: admin, ...en });
  const deposit = async (u: TestUser, number: string) => {
    const res = await call(
      t,
      'POST',
      '/api/quickCharge/submit',
      { number, proofImg: await uploaded(t, u.id), charge_id: usdtTrc20 },
      { token: u.token, ...en },
    );
    expect(res.code).toBe(1);
    return res.data.id as number;
  };
  const bindCoin = async (u: TestUser) => {
    const bound = await call(
      t,
      'POST',
      '/api/wallet/bind_draw_method',
      { type: 1, draw_id: usdtWithdraw, dc_address: TRC20_ADDRESS },
      { token: u.token },
    );
    expect(bound.code).toBe(1);
    return bound.data.id as number;
  };
  const withdraw = async (u: TestUser, method: number, number: string) => {
    const res = await call(
      t,
      'POST',
      '/api/account/draw',
      { draw_currency_id: usdtWithdraw, number, draw_method_id: method },
      { token: u.token, ...en },
    );
    expect(res.code).toBe(1);
    return res.data.id as number;
  };
  const underReview = (u: TestUser) =>
    t.ctx.db.insert(identityVerifications).values({
      userId: u.id,
      name: 'Test User',
      cardId: 'A1234567',
      frontPic: '/uploads/f.png',
      reversePic: '/uploads/r.png',
      reviewStatus: 1,
    });
  const orderFields = { order_id: 0, forex_id: 0, symbol: '', order_type: 0, lots: '0', price: '0', profit: '0', time: expect.any(Number) };

  it('lists and pushes an approved and a rejected deposit, to that trader only', async () => {
    const u = await newUser(t);
    const other = await newUser(t);
    const pushes = pushesOf(t, u.id);
    const otherPushes = pushesOf(t, other.id);
    const approved = await deposit(u, '100');
    expect((await staffCall('/api/admin/deposits/approve', { id: approved, amount: '99.5' })).code).toBe(1);
    const rejected = await deposit(u, '250');
    expect((await staffCall('/api/admin/deposits/reject', { id: rejected, remark: 'The proof does not show the transfer' })).code).toBe(1);
    pushes.stop();
    otherPushes.stop();
    const approvedNotice = { ...orderFields, kind: 'deposit_approved', amount: '99.50', currency: 'USDT' };
    const rejectedNotice = {
      ...orderFields,
      kind: 'deposit_rejected',
      amount: '250.00',
      currency: 'USDT',
      reason: 'The proof does not show the transfer',
    };
    expect(await notices(u)).toEqual({ total: 2, data: [rejectedNotice, approvedNotice] });
    expect(pushes.messages.filter((m) => m.type === 'NOTICE')).toEqual([
      { type: 'NOTICE', ...approvedNotice, seq: expect.any(Number) },
      { type: 'NOTICE', ...rejectedNotice, seq: expect.any(Number) },
    ]);
    expect(await notices(other)).toEqual({ total: 0, data: [] });
    expect(otherPushes.messages).toEqual([]);
  });

  it('lists and pushes a paid and a rejected withdrawal, to that trader only', async () => {
    const u = await newUser(t, { balance: '1000' });
    const other = await newUser(t, { balance: '1000' });
    const pushes = pushesOf(t, u.id);
    const method = await bindCoin(u);
    const paid = await withdraw(u, method, '100');
    expect((await staffCall('/api/admin/withdrawals/approve', { id: paid, tx_ref: '0xabc' })).code).toBe(1);
    const rejected = await withdraw(u, method, '120.5');
    expect((await staffCall('/api/admin/withdrawals/reject', { id: rejected, remark: 'Address on a sanctions list' })).code).toBe(1);
    pushes.stop();
    const paidNotice = { ...orderFields, kind: 'withdrawal_paid', amount: '100.00', currency: 'USD' };
    const rejectedNotice = {
      ...orderFields,
      kind: 'withdrawal_rejected',
      amount: '120.50',
      currency: 'USD',
      reason: 'Address on a sanctions list',
    };
    expect(await notices(u)).toEqual({ total: 2, data: [rejectedNotice, paidNotice] });
    expect(pushes.messages.filter((m) => m.type === 'NOTICE').map((m) => m.kind)).toEqual(['withdrawal_paid', 'withdrawal_rejected']);
    expect(await notices(other)).toEqual({ total: 0, data: [] });
  });

  it('lists and pushes a verified and a rejected identity, with the reason', async () => {
    const verified = await newUser(t, { verified: false });
    const rejected = await newUser(t, { verified: false });
    const other = await newUser(t, { verified: false });
    await underReview(verified);
    await underReview(rejected);
    await underReview(other);
    const pushes = pushesOf(t, rejected.id);
    expect((await staffCall('/api/admin/identity/approve', { user_id: verified.id })).code).toBe(1);
    expect((await staffCall('/api/admin/identity/reject', { user_id: rejected.id, reason: 'The photo is blurred' })).code).toBe(1);
    pushes.stop();
    expect(await notices(verified)).toEqual({ total: 1, data: [{ ...orderFields, kind: 'identity_verified' }] });
    const rejectedNotice = { ...orderFields, kind: 'identity_rejected', reason: 'The photo is blurred' };
    expect(await notices(rejected)).toEqual({ total: 1, data: [rejectedNotice] });
    expect(pushes.messages.filter((m) => m.type === 'NOTICE')).toEqual([{ type: 'NOTICE', ...rejectedNotice, seq: expect.any(Number) }]);
    expect(await notices(other)).toEqual({ total: 0, data: [] });
  });

  it("lists and pushes a support reply, not the trader's own message", async () => {
    const u = await newUser(t);
    const other = await newUser(t);
    expect((await call(t, 'POST', '/api/support/send', { body: 'Where is my deposit?' }, { token: u.token })).code).toBe(1);
    expect(await notices(u)).toEqual({ total: 0, data: [] });
    const pushes = pushesOf(t, u.id);
    expect((await staffCall('/api/admin/support/send', { user_id: u.id, body: 'It is credited now.' })).code).toBe(1);
    pushes.stop();
    const reply = { ...orderFields, kind: 'support_reply' };
    expect(await notices(u)).toEqual({ total: 1, data: [reply] });
    expect(pushes.messages.filter((m) => m.type === 'NOTICE')).toEqual([{ type: 'NOTICE', ...reply, seq: expect.any(Number) }]);
    expect(await notices(other)).toEqual({ total: 0, data: [] });
  });
});
