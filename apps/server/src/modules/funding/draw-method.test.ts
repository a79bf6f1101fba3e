import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { drawMethods, withdrawCurrencies } from '../../platform/db/schema.ts';
import { newUser, type TestUser } from './test-helpers.ts';

const en = { lang: 'en' };
const TRC20_ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const ERC20_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const BANK = {
  bank_name: 'Harbour Bank',
  bank_address: '1 Queen’s Road, Hong Kong',
  bank_swift: 'hbhkhkhx',
  payee_name: 'Chan Tai Man',
  payee_account: '012-345678-901',
};

describe.each(dbTargets)('receiving accounts on %s', (target) => {
  let t: TestApp;
  const currency: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(target);
    for (const c of await t.ctx.db.select().from(withdrawCurrencies)) currency[`${c.code}-${c.protocol}`] = c.id;
  });
  afterAll(async () => t?.close());

  const bind = (u: TestUser, params: Record<string, unknown>, url = '/api/wallet/bind_draw_method') =>
    call(t, 'POST', url, params, { token: u.token, ...en });
  const methodsOf = (u: TestUser, params: Record<string, unknown> = {}) =>
    call(t, 'GET', '/api/wallet/get_draw_method', params, { token: u.token, ...en });

  it('lists the withdrawal currencies of each kind with fee terms and limits', async () => {
    const u = await newUser(t);
    const coin = await call(t, 'GET', '/api/account/draw_symbol_list', { type: 1 }, { token: u.token });
    expect(coin.data.map((c: { code: string; protocol: string }) => `${c.code}-${c.protocol}`)).toEqual([
      'USDT-TRC20',
      'USDT-ERC20',
      'BTC-Bitcoin',
    ]);
    expect(coin.data[0]).toEqual({
      id: currency['USDT-TRC20'],
      code: 'USDT',
      protocol: 'TRC20',
      type: 1,
      draw_rate: '1',
      fee_type: 1,
      usd_price: '1',
      decimals: 6,
      min_amount: '10',
      max_amount: '50000',
    });
    const bank = await call(t, 'GET', '/api/account/draw_symbol_list', { type: 2 }, { token: u.token });
    expect(bank.data.map((c: { code: string }) => c.code)).toEqual(['USD', 'EUR']);
    expect(bank.data[1]).toMatchObject({ fee_type: 2, draw_rate: '1', usd_price: '0.92', decimals: 2, min_amount: '100' });
  });

  it('binds coin addresses checked against their network, and bank accounts with sane details', async () => {
    const u = await newUser(t);
    const coin = await bind(u, { type: 1, draw_id: currency['USDT-TRC20'], dc_address: TRC20_ADDRESS });
    expect(coin).toMatchObject({
      code: 1,
      data: {
        type: 1,
        dc_address: TRC20_ADDRESS,
        bank_name: '',
        draw_currency: { id: currency['USDT-TRC20'], code: 'USDT', protocol: 'TRC20' },
      },
    });
    const bank = await bind(u, { type: 2, draw_id: currency['USD-SWIFT'], ...BANK }, '/api/bind_draw_method');
    expect(bank).toMatchObject({
      code: 1,
      data: { type: 2, ...BANK, bank_swift: 'HBHKHKHX', dc_address: '', draw_currency: { code: 'USD' } },
    });

    const all = await methodsOf(u);
    expect(all.data.map((m: { id: number }) => m.id)).toEqual([bank.data.id, coin.data.id]);
    expect((await methodsOf(u, { draw_type: 1 })).data.map((m: { id: number }) => m.id)).toEqual([coin.data.id]);
    expect((await methodsOf(u, { draw_type: 2, draw_id: currency['USD-SWIFT'] })).data.map((m: { id: number }) => m.id)).toEqual([
      bank.data.id,
    ]);
    expect((await methodsOf(u, { draw_id: currency['EUR-SWIFT'] })).data).toEqual([]);
  });

  it('refuses addresses of the wrong network, incomplete or odd bank details, and duplicates', async () => {
    const u = await newUser(t);
    const trc = currency['USDT-TRC20'];
    const usd = currency['USD-SWIFT'];
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 1, draw_id: trc }, 'Please fill in all fields'],
      [{ type: 1, draw_id: trc, dc_address: ERC20_ADDRESS }, 'This is not a valid USDT TRC20 address'],
      [{ type: 1, draw_id: currency['USDT-ERC20'], dc_address: TRC20_ADDRESS }, 'This is not a valid USDT ERC20 address'],
      [
        { type: 1, draw_id: currency['BTC-Bitcoin'], dc_address: 'bc1 qn7w4xk2m9d3s8hvy5p6t0rjz4ce2ufa3lq8g7e' },
        'This is not a valid BTC Bitcoin address',
      ],
      [{ type: 1, draw_id: usd, dc_address: TRC20_ADDRESS }, 'This withdrawal currency is not available'],
      [{ type: 1, draw_id: 99999, dc_address: TRC20_ADDRESS }, 'This withdrawal currency is not available'],
      [{ type: 3, draw_id: trc, dc_address: TRC20_ADDRESS }, 'Please fill in all fields'],
      [{ type: 2, draw_id: usd, ...BANK, payee_name: '' }, 'Please fill in all fields'],
      [{ type: 2, draw_id: usd, ...BANK, bank_swift: 'HBHK1' }, 'The SWIFT code must be 8 or 11 letters and digits'],
      [{ type: 2, draw_id: usd, ...BANK, bank_swift: 'HBHKHKHX12' }, 'The SWIFT code must be 8 or 11 letters and digits'],
      [{ type: 2, draw_id: usd, ...BANK, payee_account: '12' }, 'The payee account must be 4 to 64 letters, digits, spaces or dashes'],
      [
        { type: 2, draw_id: usd, ...BANK, payee_account: '12;drop table' },
        'The payee account must be 4 to 64 letters, digits, spaces or dashes',
      ],
      [{ type: 2, draw_id: usd, ...BANK, bank_name: 'Bank\u0007Name' }, 'The text contains characters that are not allowed'],
      [{ type: 2, draw_id: usd, ...BANK, bank_name: 'x'.repeat(121) }, 'The text is too long'],
    ];
    const answers: [Record<string, unknown>, string][] = [];
    for (const [params] of cases) {
      const res = await bind(u, params);
      answers.push([params, res.code === 1 ? 'accepted' : res.msg]);
    }
    expect(answers).toEqual(cases);
    expect((await methodsOf(u)).data).toEqual([]);

    expect((await bind(u, { type: 1, draw_id: trc, dc_address: TRC20_ADDRESS })).code).toBe(1);
    expect(await bind(u, { type: 1, draw_id: trc, dc_address: TRC20_ADDRESS })).toMatchObject({
      code: 0,
      msg: 'This payment account is already bound',
    });
    expect((await bind(u, { type: 2, draw_id: usd, ...BANK })).code).toBe(1);
    expect(await bind(u, { type: 2, draw_id: usd, ...BANK, bank_swift: 'HBHKHKHX' })).toMatchObject({
      msg: 'This payment account is already bound',
    });
  });

  it('deletes only the owner’s methods; others’ ids answer as not found', async () => {
    const owner = await newUser(t);
    const other = await newUser(t);
    const m = await bind(owner, { type: 1, draw_id: currency['USDT-TRC20'], dc_address: TRC20_ADDRESS });
    const foreign = await call(t, 'POST', '/api/wallet/del_draw_method', { id: m.data.id }, { token: other.token, ...en });
    expect(foreign).toMatchObject({ code: 1004, msg: 'Not found' });
    expect((await methodsOf(owner)).data).toHaveLength(1);
    expect((await methodsOf(other)).data).toEqual([]);

    expect((await call(t, 'POST', '/api/del_draw_method', { id: m.data.id }, { token: owner.token })).code).toBe(1);
    expect((await methodsOf(owner)).data).toEqual([]);
    expect((await call(t, 'POST', '/api/wallet/del_draw_method', { id: m.data.id }, { token: owner.token })).code).toBe(1004);
    const kept = await t.ctx.db
      .select()
      .from(drawMethods)
      .where(and(eq(drawMethods.id, m.data.id), isNotNull(drawMethods.deletedAt)));
    expect(kept).toHaveLength(1);
    // The address can be bound again once the old binding is deleted.
    expect((await bind(owner, { type: 1, draw_id: currency['USDT-TRC20'], dc_address: TRC20_ADDRESS })).code).toBe(1);
  });

  it('refuses demo users on every wallet call', async () => {
    const demo = await newUser(t, { demo: true, verified: false });
    const calls = [
      ['GET', '/api/account/draw_symbol_list', { type: 1 }],
      ['GET', '/api/wallet/get_draw_method', {}],
      ['POST', '/api/wallet/bind_draw_method', { type: 1, draw_id: currency['USDT-TRC20'], dc_address: TRC20_ADDRESS }],
      ['POST', '/api/bind_draw_method', { type: 1, draw_id: currency['USDT-TRC20'], dc_address: TRC20_ADDRESS }],
      ['POST', '/api/wallet/del_draw_method', { id: 1 }],
      ['POST', '/api/del_draw_method', { id: 1 }],
      ['POST', '/api/account/draw', { draw_currency_id: currency['USDT-TRC20'], number: '10', draw_method_id: 1 }],
      ['GET', '/api/account/draw_list', {}],
    ] as const;
    for (const [method, url, params] of calls) {
      const res = await call(t, method, url, params, { token: demo.token, ...en });
      expect({ url, code: res.code, msg: res.msg }).toEqual({
        url,
        code: 1010,
        msg: 'This feature is only for real accounts. Please register or log into a real account.',
      });
    }
    expect(await t.ctx.db.select().from(drawMethods).where(eq(drawMethods.userId, demo.id))).toEqual([]);
  });
});
