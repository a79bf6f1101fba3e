import { eq, inArray, sql } from 'drizzle-orm';
import { dec } from '@tp/contract/decimal';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import {
  identityVerifications,
  ledgerTransactions,
  settings,
  staffAuditLog,
  withdrawCurrencies,
  withdrawals,
} from '../../platform/db/schema.ts';
import { cashOf, expectBooksBalanced, houseBalance, newUser, staffToken, type TestUser } from './test-helpers.ts';

const en = { lang: 'en' };
const TRC20_ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const BANK = {
  bank_name: 'Harbour Bank',
  bank_address: '1 Queen’s Road, Hong Kong',
  bank_swift: 'HBHKHKHX',
  payee_name: 'Chan Tai Man',
  payee_account: '012-345678-901',
};
const INSUFFICIENT = 'The amount exceeds your available balance';

describe.each(dbTargets)('withdrawals on %s', (target) => {
  let t: TestApp;
  let finance: string;
  const currency: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(target);
    finance = await staffToken(t, ['finance']);
    for (const c of await t.ctx.db.select().from(withdrawCurrencies)) currency[`${c.code}-${c.protocol}`] = c.id;
  });
  afterAll(async () => t?.close());

  const bindCoin = async (u: TestUser, key = 'USDT-TRC20', address = TRC20_ADDRESS): Promise<number> => {
    const res = await call(
      t,
      'POST',
      '/api/wallet/bind_draw_method',
      { type: 1, draw_id: currency[key], dc_address: address },
      { token: u.token },
    );
    expect(res.code).toBe(1);
    return res.data.id;
  };
  const draw = (u: TestUser, params: Record<string, unknown>) =>
    call(t, 'POST', '/api/account/draw', { draw_currency_id: currency['USDT-TRC20'], number: '100', ...params }, { token: u.token, ...en });
  const drawList = (u: TestUser, params: Record<string, unknown> = {}) =>
    call(t, 'GET', '/api/account/draw_list', params, { token: u.token, ...en });
  const review = (action: 'approve' | 'reject', params: Record<string, unknown>, token = finance) =>
    call(t, 'POST', `/api/admin/withdrawals/${action}`, params, { token, ...en });

  it('takes the amount from the free balance into clearing at once, with fee and received amount', async () => {
    const u = await newUser(t, { balance: '1000' });
    const method = await bindCoin(u);
    const clearingBefore = await houseBalance(t, 'withdraw_clearing');
    const res = await draw(u, { number: '100', memo: 'rent', draw_method_id: method });
    expect(res).toMatchObject({ code: 1, data: { number: '100', fee: '1', real_number: '99', status: 0 } });
    expect(await cashOf(t, u.id)).toBe('900');
    expect(await houseBalance(t, 'withdraw_clearing')).toBe(dec(clearingBefore).plus(100).toString());
    const list = await drawList(u, { type: 1, page: 1 });
    expect(list.data.total).toBe(1);
    expect(list.data.data[0]).toMatchObject({
      id: res.data.id,
      number: '100',
      real_number: '99',
      fee: '1',
      draw_currency: { code: 'USDT', protocol: 'TRC20' },
      status: 0,
      status_name: 'Pending review',
      type: 1,
      address: TRC20_ADDRESS,
      payee_account: '',
      memo: 'rent',
      notes: '',
    });
    expect((await drawList(u, { type: 2 })).data.total).toBe(0);
    expect((await drawList(await newUser(t))).data).toEqual({ data: [], total: 0 });
    await expectBooksBalanced(t);
  });

  it('charges a percent fee by fee_type and converts what is received at usd_price', async () => {
    const u = await newUser(t, { balance: '1000' });
    const btc = await draw(u, {
      draw_currency_id: currency['BTC-Bitcoin'],
      number: '200',
      draw_method_id: await bindCoin(u, 'BTC-Bitcoin', BTC_ADDRESS),
    });
    // fee 0.5% of 200 = 1; (200 - 1) x 0.0000105 = 0.0020895 BTC, kept to BTC's 8 decimals.
    expect(btc.data).toMatchObject({ fee: '1', real_number: '0.0020895' });
    const bank = await call(
      t,
      'POST',
      '/api/wallet/bind_draw_method',
      { type: 2, draw_id: currency['EUR-SWIFT'], ...BANK },
      { token: u.token },
    );
    const eur = await draw(u, { draw_currency_id: currency['EUR-SWIFT'], number: '150.5', draw_method_id: bank.data.id });
    // (150.5 - 1.505) x 0.92 = 137.0754 EUR, paid to the euro's 2 decimals.
    expect(eur.data).toMatchObject({ fee: '1.505', real_number: '137.08' });
    const rows = (await drawList(u, { type: 2 })).data.data;
    expect(rows[0]).toMatchObject({ type: 2, payee_account: BANK.payee_account, address: '', draw_currency: { code: 'EUR' } });
    expect(await cashOf(t, u.id)).toBe('649.5');
  });

  it('never lets the received amount fall below zero, nor the fee exceed the amount', async () => {
    const [row] = await t.ctx.db
      .insert(withdrawCurrencies)
      .values({
        code: 'USDT',
        protocol: 'TRC20-promo',
        type: 1,
        feeType: 1,
        drawRate: '25',
        unitsPerUsd: '1',
        decimals: 6,
        minAmount: '10',
        maxAmount: '100',
        addressPattern: '^T[1-9A-HJ-NP-Za-km-z]{33}$',
      })
      .returning();
    currency['USDT-promo'] = row!.id;
    const u = await newUser(t, { balance: '50' });
    const res = await draw(u, { draw_currency_id: row!.id, number: '20', draw_method_id: await bindCoin(u, 'USDT-promo') });
    expect(res.data).toMatchObject({ number: '20', fee: '20', real_number: '0' });
    expect(await cashOf(t, u.id)).toBe('30');
  });

  it('refuses every way a withdrawal can be wrong, with a clear message, moving nothing', async () => {
    const u = await newUser(t, { balance: '500' });
    const other = await newUser(t, { balance: '500' });
    const none = await draw(u, { draw_method_id: '' });
    expect(none).toMatchObject({ code: 0, msg: 'Please bind a payment account first' });
    const method = await bindCoin(u);
    const foreign = await bindCoin(other);
    const btcMethod = await bindCoin(u, 'BTC-Bitcoin', BTC_ADDRESS);
    const deleted = await bindCoin(u, 'USDT-TRC20', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7');
    await call(t, 'POST', '/api/wallet/del_draw_method', { id: deleted }, { token: u.token });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ draw_method_id: '' }, 0, 'Please choose a withdrawal address'],
      [{ draw_method_id: foreign }, 1004, 'This payment account was not found'],
      [{ draw_method_id: deleted }, 1004, 'This payment account was not found'],
      [{ draw_method_id: btcMethod }, 0, 'Please bind a payment account first'],
      [{ draw_method_id: method, draw_currency_id: 99999 }, 0, 'This withdrawal currency is not available'],
      [{ draw_method_id: method, draw_currency_id: '' }, 1001, 'This withdrawal currency is not available'],
      [{ draw_method_id: method, number: '9.99' }, 0, 'The minimum withdrawal amount is 10.00'],
      [{ draw_method_id: method, number: '50000.01' }, 0, 'The maximum withdrawal amount is 50,000.00'],
      [{ draw_method_id: method, number: '500.000001' }, 2002, INSUFFICIENT],
      [{ draw_method_id: method, number: '' }, 1001, 'Please enter an amount'],
      [{ draw_method_id: method, number: '-100' }, 1001, 'The amount cannot be negative'],
      [{ draw_method_id: method, number: '0' }, 1001, 'The amount must be greater than zero'],
      [{ draw_method_id: method, number: '1e2' }, 1001, 'Please enter the amount as a plain number, such as 100 or 12.5'],
      [{ draw_method_id: method, number: 'Infinity' }, 1001, 'Please enter the amount as a plain number, such as 100 or 12.5'],
      [{ draw_method_id: method, number: '100.0000001' }, 1001, 'The amount has too many decimal places'],
    ];
    const answers: [Record<string, unknown>, number, string][] = [];
    for (const [params] of cases) {
      const res = await draw(u, params);
      answers.push([params, res.code, res.msg]);
    }
    expect(answers).toEqual(cases);
    expect(await cashOf(t, u.id)).toBe('500');
    expect((await drawList(u)).data.total).toBe(0);
    expect((await draw(u, { draw_method_id: method, number: '500' })).code).toBe(1);
    expect(await cashOf(t, u.id)).toBe('0');
    await expectBooksBalanced(t);
  });

  it('requires verified identity unless the setting turns it off', async () => {
    const u = await newUser(t, { balance: '100', verified: false });
    const method = await bindCoin(u);
    expect(await draw(u, { number: '20', draw_method_id: method })).toMatchObject({
      code: 0,
      msg: 'Please complete identity verification before withdrawing',
    });
    await t.ctx.db
      .insert(identityVerifications)
      .values({ userId: u.id, name: 'Pending', cardId: 'X1', frontPic: '/uploads/a.png', reversePic: '/uploads/b.png', reviewStatus: 1 });
    expect((await draw(u, { number: '20', draw_method_id: method })).msg).toBe('Please complete identity verification before withdrawing');
    await t.ctx.db.update(settings).set({ value: '0' }).where(eq(settings.key, 'withdraw_requires_identity'));
    try {
      expect((await draw(u, { number: '20', draw_method_id: method })).code).toBe(1);
    } finally {
      await t.ctx.db.update(settings).set({ value: '1' }).where(eq(settings.key, 'withdraw_requires_identity'));
    }
    expect(await cashOf(t, u.id)).toBe('80');
  });

  it('keeps a withdrawal within the free margin when open positions are losing', async () => {
    const u = await newUser(t, { balance: '1000' });
    const method = await bindCoin(u);
    const figures = t.ctx.services.trading.accountFigures.bind(t.ctx.services.trading);
    // Open positions with a floating loss of 300: free margin = equity - lock_balance = balance - 300.
    const spy = vi.spyOn(t.ctx.services.trading, 'accountFigures').mockImplementation(async (userId, db) => {
      const f = await figures(userId, db);
      return { ...f, floatingProfit: dec(-300), equity: f.equity.minus(300), freeMargin: f.freeMargin.minus(300) };
    });
    try {
      expect(await draw(u, { number: '700.01', draw_method_id: method })).toMatchObject({ code: 2002, msg: INSUFFICIENT });
      expect((await draw(u, { number: '700', draw_method_id: method })).code).toBe(1);
    } finally {
      spy.mockRestore();
    }
    expect(await cashOf(t, u.id)).toBe('300');
  });

  it('never overdraws when 100 withdrawals against one balance arrive at once, and records each exactly', async () => {
    const u = await newUser(t, { balance: '1000' });
    const method = await bindCoin(u);
    const clearingBefore = await houseBalance(t, 'withdraw_clearing');
    const results = await Promise.all(Array.from({ length: 100 }, () => draw(u, { number: '15', draw_method_id: method })));
    const accepted = results.filter((r) => r.code === 1);
    expect(accepted).toHaveLength(66);
    for (const r of results.filter((r) => r.code !== 1)) expect(r).toMatchObject({ code: 2002, msg: INSUFFICIENT });
    expect(await cashOf(t, u.id)).toBe('10');
    const rows = await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, u.id));
    expect(rows.map((r) => r.id).sort()).toEqual(accepted.map((r) => r.data.id).sort());
    const total = rows.reduce((s, r) => s.plus(r.number), dec(0));
    expect(total.toString()).toBe('990');
    expect(await houseBalance(t, 'withdraw_clearing')).toBe(dec(clearingBefore).plus(total).toString());
    const txs = await t.ctx.db
      .select()
      .from(ledgerTransactions)
      .where(
        inArray(
          ledgerTransactions.refId,
          rows.map((r) => String(r.id)),
        ),
      );
    expect(txs.filter((x) => x.kind === 'withdraw')).toHaveLength(66);
    await expectBooksBalanced(t);
  });

  it('pays out once with the transaction reference, even when approved 20 times at once', async () => {
    const u = await newUser(t, { balance: '300' });
    const w = await draw(u, { number: '200', draw_method_id: await bindCoin(u) });
    expect(await review('approve', { id: w.data.id })).toMatchObject({ code: 1001, msg: 'Please fill in all fields' });
    const payoutsBefore = await houseBalance(t, 'payouts');
    const feesBefore = await houseBalance(t, 'fees');
    const clearingBefore = await houseBalance(t, 'withdraw_clearing');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => review('approve', { id: w.data.id, tx_ref: `0xabc${i}` })));
    const ok = results.filter((r) => r.code === 1);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((r) => r.code !== 1)) expect(r.msg).toBe('This withdrawal has already been reviewed');
    expect(ok[0]!.data).toMatchObject({ id: w.data.id, status: 1, status_name: 'Paid', user: { id: u.id }, address: TRC20_ADDRESS });
    // USDT-TRC20 charges a fixed fee of 1: 199 is paid out, 1 is fee income.
    expect(await houseBalance(t, 'payouts')).toBe(dec(payoutsBefore).plus(199).toString());
    expect(await houseBalance(t, 'fees')).toBe(dec(feesBefore).plus(1).toString());
    expect(await houseBalance(t, 'withdraw_clearing')).toBe(dec(clearingBefore).minus(200).toString());
    expect(await cashOf(t, u.id)).toBe('100');
    expect((await review('reject', { id: w.data.id, remark: 'late' })).msg).toBe('This withdrawal has already been reviewed');
    expect(await cashOf(t, u.id)).toBe('100');
    const mine = (await drawList(u)).data.data[0];
    expect(mine).toMatchObject({ status: 1, status_name: 'Paid' });
    const [row] = await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.id, w.data.id));
    expect(row!.txRef).toBe(ok[0]!.data.tx_ref);
    const audit = await t.ctx.db
      .select()
      .from(staffAuditLog)
      .where(eq(staffAuditLog.targetId, String(w.data.id)));
    expect(audit.map((a) => a.action)).toEqual(['withdrawal.approve']);
    await expectBooksBalanced(t);
  });

  it('returns exactly the amount on rejection, once, with the remark shown to the user', async () => {
    const u = await newUser(t, { balance: '123.456789' });
    const method = await bindCoin(u);
    const w = await draw(u, { number: '100.456789', draw_method_id: method });
    expect(await cashOf(t, u.id)).toBe('23');
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => review('reject', { id: w.data.id, remark: 'Address belongs to a sanctioned exchange' })),
      ...Array.from({ length: 10 }, () => review('approve', { id: w.data.id, tx_ref: 'race' })),
    ]);
    const winners = results.filter((r) => r.code === 1);
    expect(winners).toHaveLength(1);
    if (winners[0]!.data.status === 2) {
      expect(await cashOf(t, u.id)).toBe('123.456789');
      const log = await call(t, 'GET', '/v1/api/main/accountLog/forexChange', { page: 1 }, { token: u.token, ...en });
      expect(log.data.data.slice(0, 2)).toEqual([
        expect.objectContaining({ Value: '100.456789', Type: 'withdraw_refund', MemoTran: `Withdrawal returned #${w.data.id}` }),
        expect.objectContaining({ Value: '-100.456789', Type: 'withdraw', MemoTran: `Withdrawal USDT #${w.data.id}` }),
      ]);
      const mine = (await drawList(u)).data.data[0];
      expect(mine).toMatchObject({ status: 2, status_name: 'Rejected', notes: 'Address belongs to a sanctioned exchange' });
    } else {
      expect(await cashOf(t, u.id)).toBe('23');
    }
    const second = await draw(u, { number: '23', draw_method_id: method });
    expect(second.code).toBe(1);
    expect(await review('reject', { id: second.data.id })).toMatchObject({ code: 1001, msg: 'Please fill in all fields' });
    expect((await review('reject', { id: second.data.id, remark: 'Please use a different address' })).data).toMatchObject({
      status: 2,
      notes: 'Please use a different address',
    });
    expect(await cashOf(t, u.id)).toBe(winners[0]!.data.status === 2 ? '123.456789' : '23');
    const hk = await call(t, 'GET', '/api/account/draw_list', {}, { token: u.token, lang: 'hk' });
    expect(hk.data.data[0].status_name).toBe('已駁回');
    await expectBooksBalanced(t);
  });

  it('lets only finance staff (or admin) review withdrawals', async () => {
    const u = await newUser(t, { balance: '100' });
    const w = await draw(u, { number: '50', draw_method_id: await bindCoin(u) });
    const support = await staffToken(t, ['support', 'content']);
    const calls = [
      ['GET', '/api/admin/withdrawals', {}],
      ['POST', '/api/admin/withdrawals/approve', { id: w.data.id, tx_ref: 'x' }],
      ['POST', '/api/admin/withdrawals/reject', { id: w.data.id, remark: 'x' }],
    ] as const;
    for (const [method, url, params] of calls) {
      expect(await call(t, method, url, params, { token: support, ...en })).toMatchObject({
        code: 1003,
        msg: 'You are not allowed to do this',
      });
      expect((await call(t, method, url, params, { token: u.token })).code).toBe(999);
    }
    const list = await call(t, 'GET', '/api/admin/withdrawals', { status: 0, user_id: u.id }, { token: finance });
    expect(list.data).toMatchObject({
      total: 1,
      data: [{ id: w.data.id, number: '50', status: 0, user: { id: u.id }, address: TRC20_ADDRESS }],
    });
    const admin = await staffToken(t, ['admin']);
    expect((await review('approve', { id: w.data.id, tx_ref: 'TX-1' }, admin)).data).toMatchObject({ status: 1, tx_ref: 'TX-1' });
    expect((await review('approve', { id: 99_999_999, tx_ref: 'TX-1' })).code).toBe(1004);
    const [{ n }] = (await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(withdrawals)
      .where(eq(withdrawals.status, 1))) as [{ n: number }];
    expect((await call(t, 'GET', '/api/admin/withdrawals', { status: 1 }, { token: finance })).data.total).toBe(n);
  });
});
