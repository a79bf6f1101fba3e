import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawMethods, orders } from '../src/platform/db/schema.ts';
import { newUser, staffToken, type TestUser } from '../src/modules/funding/test-helpers.ts';
import { demoTrader, symbolId, tick, tradingApp, type Trader } from './trading/test-kit.ts';
import { call, dbTargets, type TestApp } from './test-app.ts';

/** Issue 17, findings 5 and 6: unchecked input answers a translated refusal, never HTTP 500; choices are decimal. */
describe.each(dbTargets)('input rules on %s', (target) => {
  let t: TestApp;
  let admin: string;
  let user: TestUser;
  let trader: Trader;
  beforeAll(async () => {
    t = await tradingApp(target);
    admin = await staffToken(t, ['admin']);
    user = await newUser(t, { balance: '1000' });
    trader = await demoTrader(t);
  });
  afterAll(async () => t?.close());

  type Who = 'guest' | 'user' | 'staff';
  const tokenOf = (who: Who) => (who === 'user' ? user.token : who === 'staff' ? admin : undefined);
  const OVER_INT = 2_147_483_648;
  const NUL = 'a\u0000b';

  // [call, who, params, the refusal a client reads]
  const refusals: [string, Who, Record<string, unknown>, string][] = [
    ['GET /api/news/info', 'guest', { id: OVER_INT }, 'Invalid id'],
    ['GET /api/company/getCompany', 'guest', { id: OVER_INT }, 'Please enter a whole number'],
    ['POST /api/notify/send_sms', 'guest', { to: '91234567', area_id: OVER_INT, type: 1 }, 'This country or region code is not available'],
    [
      'POST /api/user/register',
      'guest',
      { type: 'mobile', account: '91234567', area_id: OVER_INT, password: 'x', re_password: 'x' },
      'This country or region code is not available',
    ],
    [
      'POST /api/user/forget_password',
      'guest',
      {
        type: 'mobile',
        account: '91234567',
        area_id: OVER_INT,
        new_password: 'Tr4ding-Desk-42',
        secondary_password: 'Tr4ding-Desk-42',
        auth_code: '123456',
      },
      'This country or region code is not available',
    ],
    ['GET /api/admin/users/profile', 'staff', { user_id: OVER_INT }, 'Not found'],
    ['GET /api/admin/identity/detail', 'staff', { user_id: OVER_INT }, 'The request could not be read'],
    ['POST /api/user/loginForU', 'guest', { demo_id: NUL }, 'The text contains characters that are not allowed'],
    ['GET /api/company/search', 'guest', { name: NUL }, 'The text contains characters that are not allowed'],
    ['POST /api/feedback/submit', 'user', { content: NUL }, 'The text contains characters that are not allowed'],
    ['POST /api/support/send', 'user', { body: NUL }, 'The text contains characters that are not allowed'],
    [
      'POST /api/user_real/real_name',
      'user',
      { name: NUL, card_id: 'A1', front_pic: '/x', reverse_pic: '/y' },
      'The text contains characters that are not allowed',
    ],
    ['GET /api/admin/users/search', 'staff', { q: NUL }, 'The text contains characters that are not allowed'],
    ['POST /api/admin/deposits/reject', 'staff', { id: 1, remark: NUL }, 'The text contains characters that are not allowed'],
    [
      'POST /api/admin/users/adjust_balance',
      'staff',
      { user_id: 1, amount: '5', reason: 'x', key: `key-${NUL}-key` },
      'The text contains characters that are not allowed',
    ],
    ['POST /api/admin/deposits/approve', 'staff', { id: 1, amount: '999999999999999999' }, 'The amount is too large'],
    [
      'POST /api/admin/users/adjust_balance',
      'staff',
      { user_id: 1, amount: '999999999999999999', reason: 'x', key: 'key-too-large' },
      'The amount is too large',
    ],
  ];
  it.each(refusals)('%s (%s) %j answers a translated refusal', async (route, who, params, msg) => {
    const [method, url] = route.split(' ') as ['GET' | 'POST', string];
    const res = await call(t, method, url, params, { token: tokenOf(who), lang: 'en' });
    expect(res).toMatchObject({ status: 200, msg });
    expect(res.code).not.toBe(1);
  });

  it('refuses a JSON object where a number is expected, and moves no money', async () => {
    const res = await call(
      t,
      'POST',
      '/api/admin/users/adjust_balance',
      { user_id: user.id, amount: { value: 5 }, reason: 'x', key: 'key-object-1' },
      { token: admin, lang: 'en', json: true },
    );
    expect(res).toMatchObject({ status: 200, code: 1001, msg: 'Please enter the amount as a plain number, such as 100 or 12.5' });
    const nested = await call(
      t,
      'POST',
      '/api/admin/users/adjust_balance',
      { user_id: { $gt: 0 }, amount: '5', reason: 'x', key: 'key-object-2' },
      { token: admin, lang: 'en', json: true },
    );
    expect(nested).toMatchObject({ status: 200, code: 1001 });
    const profile = await call(t, 'GET', '/api/admin/users/profile', { user_id: user.id }, { token: admin });
    expect(profile.data.balance).toBe('1000.000000');
  });

  // Finding 6: choice fields take their decimal values only.
  it.each(['0x2', '2e0', '+2', ' 2', '2 ', '2.0', '0b10', '2\t'])('submit type=%j opens nothing', async (type) => {
    await tick(t, 'EURUSD', '1.10000', '1.10020');
    const res = await call(
      t,
      'GET',
      '/v1/api/forex/submit',
      { type, status: 1, forex_id: symbolId(t, 'EURUSD'), cont: '0.01', multiple: 100 },
      { token: trader.token, lang: 'en' },
    );
    expect(res.code).not.toBe(1);
    expect(await t.ctx.db.select().from(orders).where(eq(orders.userId, trader.userId))).toEqual([]);
  });

  it('submit status=0x1 opens nothing; decimal 2 and 1 open the sell', async () => {
    await tick(t, 'EURUSD', '1.10000', '1.10020');
    const base = { forex_id: symbolId(t, 'EURUSD'), cont: '0.01', multiple: 100 };
    const hex = await call(t, 'GET', '/v1/api/forex/submit', { ...base, type: 2, status: '0x1' }, { token: trader.token, lang: 'en' });
    expect(hex.code).not.toBe(1);
    expect(await t.ctx.db.select().from(orders).where(eq(orders.userId, trader.userId))).toEqual([]);
    const plain = await call(t, 'GET', '/v1/api/forex/submit', { ...base, type: '2', status: '1' }, { token: trader.token, lang: 'en' });
    expect(plain.code).toBe(1);
  });

  it('bind_draw_method type=0x1 binds nothing', async () => {
    const res = await call(
      t,
      'POST',
      '/api/wallet/bind_draw_method',
      { type: '0x1', draw_id: 1, dc_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
      { token: user.token, lang: 'en' },
    );
    expect(res.code).not.toBe(1);
    expect(await t.ctx.db.select().from(drawMethods).where(eq(drawMethods.userId, user.id))).toEqual([]);
  });
});
