import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClosedType, OrderStatus } from '@tp/contract/constants';
import { dec } from '@tp/contract/decimal';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import {
  cashOf,
  demoTrader,
  expectAuditClean,
  pushesOf,
  submit,
  symbolId,
  tick,
  tradingApp,
  type Trader,
} from '../../../../test/trading/test-kit.ts';
import { findOrder } from '../db/repository.ts';
import { ledgerTransactions } from '../../ledger/schema.ts';

const BTC = 'BTCUSDT';

/** The engine's take-profit closes of many users at one tick share transactions (group commit); each settles exactly once. */
describe.each(dbTargets)('group commit of the engine closes on %s', (target) => {
  let t: TestApp;
  let btc: number;
  let executor: Record<string, any>;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
    executor = (t.ctx.services.trading.engine as unknown as { executor: Record<string, any> }).executor;
  });
  afterAll(async () => t?.close());

  async function openWithTakeProfit(n: number, tp: string) {
    await tick(t, BTC, '95000', '95020');
    const out: { trader: Trader; id: number; cashAfterOpen: { balance: string; locked: string } }[] = [];
    for (let i = 0; i < n; i++) {
      const trader = await demoTrader(t);
      const opened = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, target_profit_price: tp });
      expect(opened.code, opened.msg).toBe(1);
      out.push({ trader, id: opened.data.Id as number, cashAfterOpen: await cashOf(t, trader.userId) });
    }
    return out;
  }

  async function closeTransactions(orderId: number) {
    const rows = await t.ctx.db.select().from(ledgerTransactions);
    return rows.filter((r) => r.kind === 'order_close' && Number(r.refId) === orderId).length;
  }

  it('one tick crossing 40 users take-profits closes each exactly, in fewer transactions than users', async () => {
    const positions = await openWithTakeProfit(40, '96000');
    const groups: number[] = [];
    const closeGroup = executor.closeGroup;
    executor.closeGroup = (batches: unknown[]) => (groups.push(batches.length), closeGroup.call(executor, batches));
    const pushes = positions.map((p) => pushesOf(t, p.trader.userId));
    try {
      await tick(t, BTC, '96100', '96120');
    } finally {
      executor.closeGroup = closeGroup;
    }
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.reduce((a, b) => a + b, 0)).toBeGreaterThan(positions.length / 2);

    for (const [i, p] of positions.entries()) {
      const row = (await findOrder(t.ctx.db, p.id))!;
      expect(row.status).toBe(OrderStatus.CLOSED);
      expect(row.closedType).toBe(ClosedType.TAKE_PROFIT);
      expect(dec(row.closePrice!).toString()).toBe('96100');
      // (close - open) x lots x contract size, in USD.
      const profit = dec(row.closePrice!).minus(row.price!).times(row.quantity).times(row.contractSize);
      expect(dec(row.profit!).toString()).toBe(profit.toString());
      const cash = await cashOf(t, p.trader.userId);
      expect(cash.locked).toBe('0');
      expect(dec(cash.balance).toString()).toBe(dec(p.cashAfterOpen.balance).plus(p.cashAfterOpen.locked).plus(profit).toString());
      expect(await closeTransactions(p.id)).toBe(1);
      // The engine's book and the trader's pushes follow the commit.
      expect(t.ctx.services.trading.engine.bookOf(p.trader.userId)?.positions ?? []).toEqual([]);
      const sent = pushes[i]!.messages.map((m) => m.type ?? m.event ?? m.topic);
      expect(JSON.stringify(pushes[i]!.messages)).toContain(String(p.id));
      expect(sent.length).toBeGreaterThan(0);
      pushes[i]!.stop();
    }
    await expectAuditClean(t);
  });

  it('a close that fails inside a group fails alone: the others commit, it closes on a later tick', async () => {
    const positions = await openWithTakeProfit(12, '96000');
    const bad = positions[5]!.id;
    const settlement = executor.settlement;
    const close = settlement.close;
    settlement.close = (...args: Parameters<typeof close>) =>
      (args[2] as { id: number }).id === bad ? Promise.reject(new Error('injected ledger fault')) : close.apply(settlement, args);
    try {
      await tick(t, BTC, '96100', '96120');
    } finally {
      settlement.close = close;
    }
    for (const p of positions) {
      const row = (await findOrder(t.ctx.db, p.id))!;
      expect(row.status, `order ${p.id}`).toBe(p.id === bad ? OrderStatus.OPEN : OrderStatus.CLOSED);
      expect(await closeTransactions(p.id)).toBe(p.id === bad ? 0 : 1);
    }
    // The failed one is armed again from the database and closes on the next crossing tick.
    await new Promise((r) => setTimeout(r, 600));
    await tick(t, BTC, '96110', '96130');
    expect((await findOrder(t.ctx.db, bad))!.status).toBe(OrderStatus.CLOSED);
    expect(await closeTransactions(bad)).toBe(1);
    await expectAuditClean(t);
  });
});
