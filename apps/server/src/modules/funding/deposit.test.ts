import { eq, sql } from 'drizzle-orm';
import { dec } from '@tp/contract/decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { bankWires, depositNetworks, deposits, ledgerTransactions, staffAuditLog } from '../../platform/db/schema.ts';
import { cashOf, expectBooksBalanced, houseBalance, newUser, staffToken, uploaded, type TestUser } from './test-helpers.ts';

const en = { lang: 'en' };

describe.each(dbTargets)('deposits on %s', (target) => {
  let t: TestApp;
  let admin: string;
  let finance: string;
  let usdtTrc20: number;
  let btc: number;
  let wireId: number;

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await staffToken(t, ['admin']);
    finance = await staffToken(t, ['finance']);
    const networks = await t.ctx.db.select().from(depositNetworks);
    usdtTrc20 = networks.find((n) => n.currencyCode === 'USDT' && n.protocolCode === 'TRC20')!.id;
    btc = networks.find((n) => n.currencyCode === 'BTC')!.id;
    wireId = (await t.ctx.db.select().from(bankWires))[0]!.id;
  });
  afterAll(async () => t?.close());

  const submitCoin = async (u: TestUser, params: Record<string, unknown>) =>
    call(
      t,
      'POST',
      '/api/quickCharge/submit',
      { number: '100', proofImg: await uploaded(t, u.id), charge_id: usdtTrc20, ...params },
      { token: u.token, ...en },
    );
  const records = (u: TestUser, params: Record<string, unknown> = {}) =>
    call(t, 'GET', '/api/quickCharge/quick_ist', params, { token: u.token, ...en });

  it('lists deposit networks, their currencies and the bank wire accounts', async () => {
    const u = await newUser(t);
    const info = await call(t, 'GET', '/api/quickCharge/info', {}, { token: u.token });
    expect(info.code).toBe(1);
    expect(info.data).toContainEqual({
      id: usdtTrc20,
      currency_code: 'USDT',
      protocol_code: 'TRC20',
      address: 'TNwM7kq3XbR9vDp2HcJf5sLtYe8GaZu4Wx',
      usd_price: '1',
    });
    const symbols = await call(t, 'GET', '/api/quickCharge/symbols', {}, { token: u.token });
    expect(symbols.data.map((s: { currency_code: string }) => s.currency_code)).toEqual(['USDT', 'USDC', 'BTC', 'ETH']);
    expect(symbols.data[0]).toEqual({ currency_code: 'USDT', protocols: ['TRC20', 'ERC20'] });
    const wires = await call(t, 'GET', '/api/quickCharge/wire_info', {}, { token: u.token });
    expect(wires.data.notice).toBe('');
    expect(wires.data.bank_coin[0]).toMatchObject({
      id: wireId,
      bank_name: 'Harbourline Commercial Bank Ltd.',
      bank_address: '18 Queensway, Admiralty, Hong Kong',
      bank_swift: 'HCBLHKHX',
      payee_name: 'TradePlatform Ltd.',
      payee_account: '801-204617-838',
      bank_remark: expect.stringContaining('UID'),
    });
  });

  it('records a coin deposit as unchecked, shown only in its owner’s records', async () => {
    const u = await newUser(t);
    const other = await newUser(t);
    const res = await submitCoin(u, { number: '100.5' });
    expect(res).toMatchObject({
      code: 1,
      data: { number: '100.5', type: 0, currency_code: 'USDT', status: 0, status_name: 'Unchecked', remark: '' },
    });
    const list = await records(u, { type: 0, page: 1 });
    expect(list.data.total).toBe(1);
    expect(list.data.data[0]).toMatchObject({ id: res.data.id, number: '100.5', type: 0, currency_code: 'USDT', status: 0 });
    expect(new Date(list.data.data[0].created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await records(u, { type: 1 })).data.total).toBe(0);
    expect((await call(t, 'GET', '/api/quickCharge/quick_list', {}, { token: u.token })).data.total).toBe(1);
    expect((await records(other)).data).toEqual({ data: [], total: 0 });
    expect(await cashOf(t, u.id)).toBe('0');
  });

  it('refuses bad amounts, proofs and channels with clear messages', async () => {
    const u = await newUser(t);
    const other = await newUser(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ number: '' }, 'Please enter an amount'],
      [{ number: '-5' }, 'The amount cannot be negative'],
      [{ number: '0' }, 'The amount must be greater than zero'],
      [{ number: '0.000' }, 'The amount must be greater than zero'],
      [{ number: 'NaN' }, 'Please enter the amount as a plain number, such as 100 or 12.5'],
      [{ number: 'Infinity' }, 'Please enter the amount as a plain number, such as 100 or 12.5'],
      [{ number: '1e3' }, 'Please enter the amount as a plain number, such as 100 or 12.5'],
      [{ number: '1.1234567' }, 'The amount has too many decimal places'],
      [{ proofImg: '' }, 'Please fill in all fields'],
      [{ proofImg: 'https://evil.example/x.png' }, 'Please upload an image of your payment proof'],
      [{ proofImg: '/uploads/../etc/passwd' }, 'Please upload an image of your payment proof'],
      [{ proofImg: '/uploads/never-uploaded.png' }, 'Please upload an image of your payment proof'],
      [{ proofImg: await uploaded(t, other.id) }, 'Please upload an image of your payment proof'],
      [{ charge_id: '' }, 'No payment channel. Please choose a deposit channel.'],
      [{ charge_id: 99999 }, 'No payment channel. Please choose a deposit channel.'],
    ];
    const answers: [Record<string, unknown>, string][] = [];
    for (const [params] of cases) {
      const res = await submitCoin(u, params);
      answers.push([params, res.code === 1 ? 'accepted' : res.msg]);
    }
    expect(answers).toEqual(cases);
    expect((await records(u)).data.total).toBe(0);
  });

  it('takes a bank deposit only with a chosen wire, and gives the no-channel notice when none is offered', async () => {
    const u = await newUser(t);
    const proofImg = await uploaded(t, u.id);
    const noWire = await call(t, 'POST', '/api/quickCharge/wire_submit', { number: '500', proofImg }, { token: u.token, ...en });
    expect(noWire).toMatchObject({ code: 0, msg: 'No payment channel. Please choose a deposit channel.' });
    const unknown = await call(
      t,
      'POST',
      '/api/quickCharge/wire_submit',
      { number: '500', proofImg, wire_id: 9999 },
      { token: u.token, ...en },
    );
    expect(unknown.msg).toBe('No payment channel. Please choose a deposit channel.');
    const ok = await call(
      t,
      'POST',
      '/api/quickCharge/wire_submit',
      { number: '500', proofImg, wire_id: wireId },
      { token: u.token, ...en },
    );
    expect(ok).toMatchObject({ code: 1, data: { type: 1, currency_code: 'USD', number: '500', status: 0 } });
    expect((await records(u, { type: 1 })).data.total).toBe(1);

    await t.ctx.db.update(bankWires).set({ enabled: false });
    try {
      const none = await call(
        t,
        'POST',
        '/api/quickCharge/wire_submit',
        { number: '500', proofImg, wire_id: wireId },
        { token: u.token, ...en },
      );
      expect(none).toMatchObject({
        code: 0,
        msg: 'Bank deposits are not available for your account at the moment. Please contact customer service.',
      });
      const info = await call(t, 'GET', '/api/quickCharge/wire_info', {}, { token: u.token, lang: 'hk' });
      expect(info.data).toEqual({ bank_coin: [], notice: '您的帳戶暫時未開放銀行充值，請聯絡客服。' });
    } finally {
      await t.ctx.db.update(bankWires).set({ enabled: true });
    }
  });

  it('credits the confirmed amount converted to USD once, and records who approved it', async () => {
    const u = await newUser(t);
    const dep = await submitCoin(u, { number: '0.01', charge_id: btc });
    const clearingBefore = await houseBalance(t, 'deposit_clearing');
    const approve = await call(t, 'POST', '/api/admin/deposits/approve', { id: dep.data.id, amount: '0.0095' }, { token: finance, ...en });
    expect(approve).toMatchObject({
      code: 1,
      data: { id: dep.data.id, status: 1, confirmed_amount: '0.0095', credited_usd: '902.5', usd_price: '95000' },
    });
    expect(approve.data.user.id).toBe(u.id);
    expect(await cashOf(t, u.id)).toBe('902.5');
    expect(await houseBalance(t, 'deposit_clearing')).toBe(dec(clearingBefore).minus('902.5').toString());
    const again = await call(t, 'POST', '/api/admin/deposits/approve', { id: dep.data.id, amount: '0.0095' }, { token: admin, ...en });
    expect(again).toMatchObject({ code: 0, msg: 'This deposit has already been reviewed' });
    expect(await cashOf(t, u.id)).toBe('902.5');
    const mine = await records(u);
    expect(mine.data.data[0]).toMatchObject({ status: 1, status_name: 'Finished' });
    const log = await call(t, 'GET', '/v1/api/main/accountLog/forexChange', { page: 1 }, { token: u.token, ...en });
    expect(log.data.data).toEqual([
      expect.objectContaining({ Value: '902.500000', Type: 'deposit', MemoTran: `Deposit BTC #${dep.data.id}` }),
    ]);
    const audit = await t.ctx.db
      .select()
      .from(staffAuditLog)
      .where(eq(staffAuditLog.targetId, String(dep.data.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'deposit.approve',
      targetType: 'deposit',
      after: expect.objectContaining({ status: 1, credited_usd: '902.500000' }),
    });
    await expectBooksBalanced(t);
  });

  it('credits once when 20 approvals of one deposit arrive at the same moment', async () => {
    const u = await newUser(t);
    const dep = await submitCoin(u, { number: '250' });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(t, 'POST', '/api/admin/deposits/approve', { id: dep.data.id, amount: '250' }, { token: finance, ...en }),
      ),
    );
    expect(results.filter((r) => r.code === 1)).toHaveLength(1);
    for (const r of results.filter((r) => r.code !== 1)) expect(r.msg).toBe('This deposit has already been reviewed');
    expect(await cashOf(t, u.id)).toBe('250');
    const txs = await t.ctx.db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idemKey, `deposit:${dep.data.id}`));
    expect(txs).toHaveLength(1);
    await expectBooksBalanced(t);
  });

  it('rejects with a remark the user sees, or marks invalid, without moving money', async () => {
    const u = await newUser(t);
    const a = await submitCoin(u, { number: '10' });
    const b = await submitCoin(u, { number: '20' });
    const noRemark = await call(t, 'POST', '/api/admin/deposits/reject', { id: a.data.id }, { token: finance, ...en });
    expect(noRemark).toMatchObject({ code: 1001, msg: 'Please fill in all fields' });
    const rejected = await call(
      t,
      'POST',
      '/api/admin/deposits/reject',
      { id: a.data.id, remark: 'Proof does not show the transfer' },
      { token: finance, ...en },
    );
    expect(rejected).toMatchObject({ code: 1, data: { status: 2, remark: 'Proof does not show the transfer' } });
    const invalid = await call(t, 'POST', '/api/admin/deposits/invalid', { id: b.data.id }, { token: finance, ...en });
    expect(invalid).toMatchObject({ code: 1, data: { status: 3, status_name: 'Invalid' } });
    for (const [url, params] of [
      ['/api/admin/deposits/approve', { id: a.data.id, amount: '10' }],
      ['/api/admin/deposits/invalid', { id: a.data.id }],
      ['/api/admin/deposits/reject', { id: b.data.id, remark: 'x' }],
    ] as const) {
      expect(await call(t, 'POST', url, params, { token: finance, ...en })).toMatchObject({
        code: 0,
        msg: 'This deposit has already been reviewed',
      });
    }
    const mine = await records(u);
    expect(mine.data.data.map((d: { status: number; remark: string }) => [d.status, d.remark])).toEqual([
      [3, ''],
      [2, 'Proof does not show the transfer'],
    ]);
    const hk = await call(t, 'GET', '/api/quickCharge/quick_ist', {}, { token: u.token, lang: 'hk' });
    expect(hk.data.data.map((d: { status_name: string }) => d.status_name)).toEqual(['無效', '已駁回']);
    expect(await cashOf(t, u.id)).toBe('0');
    const missing = await call(t, 'POST', '/api/admin/deposits/approve', { id: 99_999_999, amount: '1' }, { token: finance, ...en });
    expect(missing.code).toBe(1004);
    const badAmount = await call(t, 'POST', '/api/admin/deposits/approve', { id: a.data.id, amount: '-1' }, { token: finance, ...en });
    expect(badAmount).toMatchObject({ code: 1001, msg: 'The amount cannot be negative' });
    await expectBooksBalanced(t);
  });

  it('lets only finance staff (or admin) review deposits, filtered by status and user', async () => {
    const u = await newUser(t);
    const dep = await submitCoin(u, { number: '42' });
    const support = await staffToken(t, ['support']);
    const staffCalls = [
      ['GET', '/api/admin/deposits', {}],
      ['POST', '/api/admin/deposits/approve', { id: dep.data.id, amount: '42' }],
      ['POST', '/api/admin/deposits/reject', { id: dep.data.id, remark: 'no' }],
      ['POST', '/api/admin/deposits/invalid', { id: dep.data.id }],
    ] as const;
    for (const [method, url, params] of staffCalls) {
      expect(await call(t, method, url, params, { token: support, ...en })).toMatchObject({
        code: 1003,
        msg: 'You are not allowed to do this',
      });
      expect((await call(t, method, url, params, { token: u.token })).code).toBe(999);
    }
    const list = await call(t, 'GET', '/api/admin/deposits', { status: 0, user_id: u.id }, { token: finance, ...en });
    expect(list.data.total).toBe(1);
    expect(list.data.data[0]).toMatchObject({
      id: dep.data.id,
      status: 0,
      number: '42',
      proof_img: expect.stringMatching(/^\/uploads\/[0-9a-f]{24}\.png\?exp=\d+&sig=[\w-]+$/),
      user: { id: u.id, uid: expect.any(String) },
      usd_price: '1',
    });
    const [stored] = await t.ctx.db.select().from(deposits).where(eq(deposits.id, dep.data.id));
    expect(stored!.proofImg).toMatch(/^\/uploads\/[0-9a-f]{24}\.png$/);
    const adminList = await call(t, 'GET', '/api/admin/deposits', { status: 1 }, { token: admin });
    expect(adminList.data.data.every((d: { status: number }) => d.status === 1)).toBe(true);
    const [{ n }] = (await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(deposits)
      .where(eq(deposits.status, 0))) as [{ n: number }];
    expect((await call(t, 'GET', '/api/admin/deposits', { status: 0, limit: 100 }, { token: admin })).data.total).toBe(n);
  });

  it('refuses demo users on every deposit call', async () => {
    const demo = await newUser(t, { demo: true, verified: false });
    const calls = [
      ['GET', '/api/quickCharge/info', {}],
      ['GET', '/api/quickCharge/symbols', {}],
      ['GET', '/api/quickCharge/wire_info', {}],
      ['POST', '/api/quickCharge/submit', { number: '10', proofImg: await uploaded(t, demo.id), charge_id: usdtTrc20 }],
      ['POST', '/api/quickCharge/wire_submit', { number: '10', proofImg: await uploaded(t, demo.id), wire_id: wireId }],
      ['GET', '/api/quickCharge/quick_ist', {}],
      ['GET', '/api/quickCharge/quick_list', {}],
    ] as const;
    for (const [method, url, params] of calls) {
      const res = await call(t, method, url, params, { token: demo.token, ...en });
      expect({ url, code: res.code, msg: res.msg }).toEqual({
        url,
        code: 1010,
        msg: 'This feature is only for real accounts. Please register or log into a real account.',
      });
    }
    const [{ n }] = (await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(deposits)
      .where(eq(deposits.userId, demo.id))) as [{ n: number }];
    expect(n).toBe(0);
  });
});
