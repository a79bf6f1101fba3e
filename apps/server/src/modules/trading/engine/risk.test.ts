import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { ledgerAccounts, ledgerEntries, riskEvents } from '../../../platform/db/schema.ts';
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
import { fund, newUser } from '../../funding/test-helpers.ts';

const BTC = 'BTCUSDT';
const ETH = 'ETHUSDT';

describe.each(dbTargets)('risk on %s', (target) => {
  let t: TestApp;
  let btc: number;
  let eth: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
    eth = symbolId(t, ETH);
  });
  afterAll(async () => t?.close());

  const eventsOf = async (userId: number) =>
    (await t.ctx.db.select().from(riskEvents).where(eq(riskEvents.userId, userId)).orderBy(riskEvents.id)).map((e) => ({
      kind: e.kind,
      riskRate: e.riskRate,
    }));

  it('tells a margin call, refuses new orders while it lasts, and pushes the figures', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    // 2 lots at 1:2: margin 95,010, fee 6; the risk rate reaches 100% when the bid falls to 92,518.
    expect((await submit(t, trader, { type: 1, cont: '2', forex_id: btc, multiple: 2 })).code).toBe(1);
    const pushes = pushesOf(t, trader.userId);
    await tick(t, BTC, '92600', '92620');
    expect(await eventsOf(trader.userId)).toEqual([]);
    await tick(t, BTC, '92500', '92520');
    expect(await eventsOf(trader.userId)).toEqual([{ kind: 'margin_call', riskRate: '99.9600' }]);
    const refused = await submit(t, trader, { type: 1, cont: '0.01', forex_id: eth, multiple: 20 });
    expect(refused.msg).toBe('Your account is under a margin call: new orders are refused until the risk rate recovers');
    const detail = await api(t, trader, '/v1/api/main/account/forexDetail');
    expect(detail.data).toMatchObject({ risk_rate: '99.96', margin_call: 1, float_profit: '-5020.000000', equity: '94974.000000' });
    // The trader is told: a NOTICE push at once, and the notices list keeps it.
    expect(pushes.messages.filter((m) => m.type === 'NOTICE')).toEqual([
      expect.objectContaining({ kind: 'margin_call', price: '99.96', order_id: 0 }),
    ]);
    const notices = await api(t, trader, '/v1/api/forex/notices', { page: 1 });
    expect(notices.data).toMatchObject({ total: 1, data: [{ kind: 'margin_call', price: '99.96' }] });

    await t.ctx.services.trading.engine.sweep();
    pushes.stop();
    const trade = pushes.messages.filter((m) => m.type === 'FOREX_TRADE').at(-1);
    expect(trade).toMatchObject({
      type: 'FOREX_TRADE',
      To: trader.userId,
      HazardRate: '99.96',
      ProfitsTotal: '-5020.000000',
      CautionMoneyAll: '95010.000000',
      margin_call: 1,
    });
    expect(trade.TransOrder).toHaveLength(1);
    expect(trade.TransOrder[0]).toMatchObject({ UpdatePrice: '92500.00', FactProfits: '-5020.000000' });

    await tick(t, BTC, '94000', '94020');
    expect((await eventsOf(trader.userId)).map((e) => e.kind)).toEqual(['margin_call', 'margin_call_end']);
    expect((await submit(t, trader, { type: 1, cont: '0.01', forex_id: eth, multiple: 20 })).code).toBe(1);
    await api(t, trader, '/v1/api/main/user/resetForexDemoAccount');
    await expectAuditClean(t);
  });

  it('stops out the largest loss first, only until the risk rate is back above the level', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    await tick(t, ETH, '3399', '3401');
    const btcBuy = await submit(t, trader, { type: 1, cont: '1', forex_id: btc, multiple: 2 });
    const ethBuy = await submit(t, trader, { type: 1, cont: '2', forex_id: eth, multiple: 2 });
    expect(btcBuy.code).toBe(1);
    expect(ethBuy.code).toBe(1);
    // Margin 47,505 + 3,401 = 50,906; cash 100,000 - 50,906 - 5 = 49,089.
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '49089', locked: '50906' });
    await tick(t, ETH, '3300', '3301.5');
    const pushes = pushesOf(t, trader.userId);
    // At 21,000 BTC loses 74,010: equity 25,783 on 50,906 margin, 50.65% (a margin call); at 19,000, 46.72%: stop-out.
    await tick(t, BTC, '21000', '21020');
    expect(await eventsOf(trader.userId)).toEqual([{ kind: 'margin_call', riskRate: '50.6500' }]);
    await tick(t, BTC, '19000', '19020');
    pushes.stop();
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    expect(history.data.data).toHaveLength(1);
    expect(history.data.data[0]).toMatchObject({
      Id: btcBuy.data.Id,
      ClosedType: 2,
      UpdatePrice: '19000.00',
      FactProfits: '-76010.000000',
    });
    expect((await eventsOf(trader.userId)).map((e) => e.kind)).toEqual(['margin_call', 'stop_out', 'margin_call_end']);
    expect(pushes.messages).toContainEqual({ type: 'FOREX_CLOSED', id: [btcBuy.data.Id], seq: expect.any(Number) });
    const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1 });
    expect(holding.data.data.map((o: { Id: number }) => o.Id)).toEqual([ethBuy.data.Id]);
    // 49,089 + 47,505 - 76,010 = 20,584 free; ETH still open with 3,401 margin.
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '20584', locked: '3401' });
    await expectAuditClean(t);
  });

  it('writes off a balance left below zero by a stop-out (negative balance protection)', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    expect((await submit(t, trader, { type: 1, cont: '2', forex_id: btc, multiple: 2 })).code).toBe(1);
    // A gap: nothing between 94,990 and 40,000; the loss of 110,020 is larger than the account.
    await tick(t, BTC, '40000', '40020');
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    expect(history.data.data[0]).toMatchObject({ ClosedType: 2, UpdatePrice: '40000.00', FactProfits: '-110020.000000' });
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '0', locked: '0' });
    const writeOffs = await t.ctx.db
      .select({ amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(and(eq(ledgerAccounts.userId, trader.userId), eq(ledgerEntries.type, 'writeoff')));
    expect(writeOffs).toEqual([{ amount: '10026.000000' }]);
    const log = await api(t, trader, '/v1/api/main/accountLog/forexChange', { page: 1 });
    expect(log.data.data[0]).toMatchObject({ Value: '10026.000000', Type: 'writeoff', MemoTran: 'Negative balance protection' });
    await expectAuditClean(t);
  });

  it('stops out at a tick that comes while a check of the account is under way (a deposit asked for it), not at a later one', async () => {
    const u = await newUser(t, { balance: '10000' });
    const trader = { token: u.token, userId: u.id, demoId: '' };
    await tick(t, BTC, '94990', '95010');
    expect((await submit(t, trader, { type: 1, cont: '1', forex_id: btc, multiple: 20 })).code).toBe(1);
    await t.ctx.services.trading.engine.idle();
    // The gap comes just as the deposit's check has read the account (at 95,000, well above the level) and before it is done.
    const engine = t.ctx.services.trading.engine;
    const executor = (
      engine as unknown as { executor: { run: (job: { kind: string; userId: number }, ...rest: unknown[]) => Promise<void> } }
    ).executor;
    const run = executor.run.bind(executor);
    let gapped = false;
    executor.run = async (job, ...rest) => {
      await run(job, ...rest);
      if (job.kind === 'risk' && job.userId === u.id && !gapped) {
        gapped = true;
        await tick(t, BTC, '80000', '80020', false);
      }
    };
    try {
      await fund(t, u.id, '1');
      await engine.idle();
      await vi.waitFor(() => expect(gapped).toBe(true));
      await engine.idle();
    } finally {
      executor.run = run;
    }
    // 10,001 - 4,750.5 - 3 = 5,247.5 free; at 80,000 the loss of 15,010 takes it below zero: closed, and written off.
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    expect(history.data.data[0]).toMatchObject({ ClosedType: 2, UpdatePrice: '80000.00', FactProfits: '-15010.000000' });
    expect(await cashOf(t, u.id)).toEqual({ balance: '0', locked: '0' });
    await expectAuditClean(t);
  });

  it("never refuses a client's close for money: the cash goes below zero while other positions hold the equity", async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    await tick(t, ETH, '3399', '3401');
    const loser = await submit(t, trader, { type: 1, cont: '1', forex_id: btc, multiple: 20 });
    const winner = await submit(t, trader, { type: 2, cont: '25', forex_id: eth, multiple: 2 });
    expect([loser.code, winner.code]).toEqual([1, 1]);
    await tick(t, ETH, '2000', '2001.5');
    await tick(t, BTC, '30000', '30020');
    expect((await api(t, trader, '/v1/api/forex/close', { id: loser.data.Id })).code).toBe(1);
    // 52,734 + 4,750.5 - 65,010: below zero, nothing written off while ETH's margin is locked.
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '-7525.5', locked: '42487.5' });
    expect((await api(t, trader, '/v1/api/forex/close', { id: winner.data.Id })).code).toBe(1);
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '69899.5', locked: '0' });
    await expectAuditClean(t);
  });
});
