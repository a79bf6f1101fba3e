import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { settings, users } from '../../../platform/db/schema.ts';
import {
  api,
  cashOf,
  demoTrader,
  expectAuditClean,
  pushesOf,
  submit,
  symbolId,
  tick,
  tradingApp,
} from '../../../../test/trading/test-kit.ts';

const BTC = 'BTCUSDT';

describe.each(dbTargets)('demo accounts and the account log on %s', (target) => {
  let t: TestApp;
  let btc: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
  });
  afterAll(async () => t?.close());

  it('creates a demo account with the initial balance, and logs it in by demo_id', async () => {
    const created = await call(t, 'GET', '/api/user/createAccountDemoForU');
    expect(created.code).toBe(1);
    expect(created.data).toMatchObject({ is_demo: 1, balance: '100000.000000' });
    expect(created.data.demo_id).toMatch(/^demo_[0-9A-Za-z]{16}$/);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, created.data.id));
    expect(row).toMatchObject({ isDemo: true, demoId: created.data.demo_id });
    const login = await call(t, 'POST', '/api/user/loginForU', { demo_id: created.data.demo_id });
    expect(login.data.user).toMatchObject({ id: created.data.id, is_demo: 1 });
    const balance = await call(t, 'GET', '/v1/api/main/wallet/getBalance', {}, { token: login.data.token });
    expect(balance.data).toEqual({ balance: '100000.000000', lock_balance: '0.000000', currency: 'USD' });
    await expectAuditClean(t);
  });

  it('uses the configured initial balance', async () => {
    await t.ctx.db.update(settings).set({ value: '2500.5' }).where(eq(settings.key, 'demo_initial_balance'));
    await t.ctx.services.trading.settings.reload(t.ctx.db);
    const trader = await demoTrader(t);
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '2500.5', locked: '0' });
    await t.ctx.db.update(settings).set({ value: '100000' }).where(eq(settings.key, 'demo_initial_balance'));
    await t.ctx.services.trading.settings.reload(t.ctx.db);
  });

  it('resets: closes everything (closed_type 6), cancels pending orders and restores exactly the initial balance', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const open = await submit(t, trader, { type: 1, cont: '0.37', forex_id: btc, multiple: 5 });
    const pending = await submit(t, trader, { type: 2, cont: '0.1', forex_id: btc, status: 0, target_price: '99000', multiple: 10 });
    await tick(t, BTC, '93123.45', '93143.45');
    const pushes = pushesOf(t, trader.userId);
    const reset = await api(t, trader, '/v1/api/main/user/resetForexDemoAccount');
    pushes.stop();
    expect(reset.data).toEqual({ balance: '100000.000000', lock_balance: '0.000000' });
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '100000', locked: '0' });
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    const byId = Object.fromEntries(history.data.data.map((o: { Id: number }) => [o.Id, o]));
    expect(byId[open.data.Id]).toMatchObject({ Status: 3, ClosedType: 6, UpdatePrice: '93123.45', FactProfits: '-698.023500' });
    expect(byId[pending.data.Id]).toMatchObject({ Status: 4, ClosedType: 6, CancelReason: 'demo_reset' });
    expect(pushes.messages).toContainEqual({ type: 'FOREX_CLOSED', id: [open.data.Id, pending.data.Id], seq: expect.any(Number) });
    const log = await api(t, trader, '/v1/api/main/accountLog/forexChange', { page: 1, limit: 1 });
    expect(log.data.data[0]).toMatchObject({ Type: 'demo_reset', Value: '699.133500', MemoTran: 'Demo account reset' });
    await expectAuditClean(t);
  });

  it('lists the account log newest first, with the memo translated by lang, paged', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const open = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10 });
    await tick(t, BTC, '95090', '95110');
    await api(t, trader, '/v1/api/forex/close', { id: open.data.Id });
    const en = await api(t, trader, '/v1/api/main/accountLog/forexChange', { page: 1 });
    expect(en.data.total).toBe(5);
    const memo = `BTC/USDT #${open.data.Id}`;
    expect(en.data.data.map((e: Record<string, string>) => [e.Type, e.Value, e.Memo, e.MemoTran])).toEqual([
      ['profit', '8.000000', memo, `Profit and loss ${memo}`],
      ['margin_release', '950.100000', memo, `Margin released ${memo}`],
      ['trade_fee', '-0.300000', memo, `Trading fee ${memo}`],
      ['margin_lock', '-950.100000', memo, `Margin locked ${memo}`],
      ['demo_funding', '100000.000000', '', 'Demo account initial balance'],
    ]);
    expect(en.data.data[0].CreatedAtTran).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const hk = await api(t, trader, '/v1/api/main/accountLog/forexChange', { page: 2, limit: 2 }, 'hk');
    expect(hk.data.total).toBe(5);
    expect(hk.data.data.map((e: Record<string, string>) => e.MemoTran)).toEqual([`手續費 ${memo}`, `凍結保證金 ${memo}`]);
    expect((await api(t, trader, '/v1/api/main/accountLog/forexChange', { page: 0 })).code).toBe(1001);
  });
});
