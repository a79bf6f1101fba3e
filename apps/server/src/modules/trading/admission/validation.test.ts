import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { symbolLeverages, symbols } from '../../../platform/db/schema.ts';
import {
  api,
  cashOf,
  demoTrader,
  expectAuditClean,
  submit,
  symbolId,
  tick,
  tradingApp,
  type Trader,
} from '../../../../test/trading/test-kit.ts';

const BTC = 'BTCUSDT';

describe.each(dbTargets)('order validation on %s', (target) => {
  let t: TestApp;
  let trader: Trader;
  let btc: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
    trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
  });
  afterAll(async () => t?.close());

  const base = () => ({ type: 1, cont: '0.1', forex_id: btc, status: 1, multiple: 10 });
  const refusal = async (params: Record<string, unknown>, lang = 'en') => {
    const res = await api(t, trader, '/v1/api/forex/submit', params, lang);
    expect(res.code).not.toBe(1);
    return res.msg;
  };

  it('refuses bad quantities, prices and leverages with a clear message each, changing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ cont: undefined }, 'Please enter the number of lots'],
      [{ cont: ' ' }, 'Please enter the number of lots'],
      [{ cont: '-1' }, 'The number of lots cannot be negative'],
      [{ cont: '0' }, 'The number of lots must be greater than zero'],
      [{ cont: 'NaN' }, 'The number of lots must be a plain number, such as 0.01'],
      [{ cont: 'Infinity' }, 'The number of lots must be a plain number, such as 0.01'],
      [{ cont: '1e3' }, 'The number of lots must be a plain number, such as 0.01'],
      [{ cont: '0x10' }, 'The number of lots must be a plain number, such as 0.01'],
      [{ cont: '0.0000001' }, 'The number of lots can have at most 6 decimals'],
      [{ cont: '0.001' }, 'The minimum is 0.01 lots'],
      [{ cont: '11' }, 'The maximum is 10 lots'],
      [{ cont: '0.015' }, 'The number of lots must be a multiple of 0.01'],
      [{ multiple: 3 }, 'Please choose one of the available leverage multiples: 2, 5, 10, 20'],
      [{ multiple: undefined }, 'Please choose one of the available leverage multiples: 2, 5, 10, 20'],
      [{ multiple: '10.5' }, 'Please choose one of the available leverage multiples: 2, 5, 10, 20'],
      [{ type: 3 }, 'The order direction must be buy or sell'],
      [{ forex_id: 'abc' }, 'This product does not exist'],
      [{ forex_id: 999_999 }, 'This product does not exist'],
      [{ status: 0 }, 'Please enter the price for a pending order'],
      [{ status: 0, target_price: '-95000' }, 'The price cannot be negative'],
      [{ status: 0, target_price: '0' }, 'The price must be greater than zero'],
      [{ status: 0, target_price: '94000.123' }, 'The price can have at most 2 decimals'],
      [{ status: 0, target_price: '9.4e4' }, 'The price must be a plain number'],
      [{ target_profit_price: 'abc' }, 'The take-profit price must be a plain number'],
      [{ stop_loss_price: '-1' }, 'The stop-loss price cannot be negative'],
      [{ target_profit_price: '94000' }, 'For a buy, the take-profit must be above 94990.00'],
      [{ stop_loss_price: '95500' }, 'For a buy, the stop-loss must be below 94990.00'],
      [{ type: 2, target_profit_price: '96000' }, 'For a sell, the take-profit must be below 95010.00'],
      [{ type: 2, stop_loss_price: '94000' }, 'For a sell, the stop-loss must be above 95010.00'],
      [{ status: 0, target_price: '90000', target_profit_price: '89000' }, 'For a buy, the take-profit must be above 90000.00'],
      [{ cont: '10', multiple: 2 }, 'Insufficient available margin: this order needs 475,080.00 USD, 100,000.00 USD is available'],
    ];
    for (const [params, message] of cases) expect(await refusal({ ...base(), ...params }), JSON.stringify(params)).toBe(message);
    expect(await refusal({ ...base(), cont: '-1' }, 'hk')).toBe('手數不能為負數');
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '100000', locked: '0' });
    const deals = await Promise.all([0, 1, 3].map((status) => api(t, trader, '/v1/api/forex/my_deal', { status })));
    expect(deals.map((d) => d.data.total)).toEqual([0, 0, 0]);
    await expectAuditClean(t);
  });

  it('asks for a login, and refuses untradable symbols and symbols without leverage', async () => {
    expect((await api(t, null, '/v1/api/forex/submit', base())).code).toBe(999);
    const eth = symbolId(t, 'ETHUSDT');
    await t.ctx.db.delete(symbolLeverages).where(eq(symbolLeverages.symbolId, eth));
    await t.ctx.db.update(symbols).set({ tradable: false }).where(eq(symbols.code, 'SOLUSDT'));
    await t.ctx.services.market.reloadSymbols();
    expect(await refusal({ ...base(), forex_id: eth, cont: '1' })).toBe(
      'Leverage is not configured for this product, so orders cannot be placed',
    );
    expect(await refusal({ ...base(), forex_id: symbolId(t, 'SOLUSDT'), cont: '1' })).toBe('This product cannot be traded at the moment');
  });

  it('refuses a demo reset to a real account', async () => {
    const { insertUser } = await import('../../auth/user-repository.ts');
    const real = await insertUser(t.ctx.db, { email: `real${Date.now()}@example.com` });
    const token = await t.ctx.services.sessions.create({ userId: real.id });
    const res = await api(t, { token, userId: real.id, demoId: '' }, '/v1/api/main/user/resetForexDemoAccount');
    expect(res).toMatchObject({ code: 0, msg: 'Only demo accounts can be reset' });
  });
});

describe('orders while the market is closed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.ctx.services.trading.engine.start();
  });
  afterAll(async () => t?.close());

  it('refuses to open or close and triggers nothing', async () => {
    const trader = await demoTrader(t);
    const btc = symbolId(t, BTC);
    await tick(t, BTC, '94990', '95010');
    const opened = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, target_profit_price: '95500' });
    expect(opened.code).toBe(1);
    // A schedule of one minute a week, three days from now: closed.
    const day = (new Date().getUTCDay() + 3) % 7;
    await t.ctx.db
      .update(symbols)
      .set({ schedule: sql`${JSON.stringify([{ day, open: '00:00', close: '00:01' }])}::jsonb` })
      .where(eq(symbols.id, btc));
    await t.ctx.services.market.reloadSymbols();
    const closedMsg = 'The market is closed for this product';
    expect(await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10 })).toMatchObject({ code: 2001, msg: closedMsg });
    expect(await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id })).toMatchObject({ code: 2001, msg: closedMsg });
    expect(t.ctx.services.market.publishTick({ symbolId: btc, bid: '96000', ask: '96020', time: Date.now() })).toBe(false);
    await t.ctx.services.trading.engine.idle();
    expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.total).toBe(1);
    await expectAuditClean(t);
  });
});
