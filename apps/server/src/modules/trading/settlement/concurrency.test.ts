import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { ledgerTransactions } from '../../../platform/db/schema.ts';
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

describe.each(dbTargets)('concurrency on %s', (target) => {
  let t: TestApp;
  let btc: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
    await tick(t, BTC, '94990', '95010');
  });
  afterAll(async () => t?.close());

  const closeTransactions = async (orderId: number) =>
    (
      await t.ctx.db
        .select()
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.kind, 'order_close'), eq(ledgerTransactions.refId, String(orderId))))
    ).length;

  it('closes an order once when 50 closes race', async () => {
    const trader = await demoTrader(t);
    const opened = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10 });
    const pushes = pushesOf(t, trader.userId);
    const results = await Promise.all(Array.from({ length: 50 }, () => api(t, trader, '/v1/api/forex/close', { id: opened.data.Id })));
    pushes.stop();
    expect(results.filter((r) => r.code === 1)).toHaveLength(1);
    expect(results.filter((r) => r.code !== 1).every((r) => r.msg === 'Order not found or already closed')).toBe(true);
    expect(await closeTransactions(opened.data.Id)).toBe(1);
    expect(pushes.messages.filter((m) => m.type === 'FOREX_CLOSED')).toEqual([
      { type: 'FOREX_CLOSED', id: [opened.data.Id], seq: expect.any(Number) },
    ]);
    // Opened at 95,010, closed at 94,990: the fee and a 2.00 loss.
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '99997.7', locked: '0' });
    await expectAuditClean(t);
  });

  it('closes an order once when a take-profit tick races the owner and staff', async () => {
    const trader = await demoTrader(t);
    const opened = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, target_profit_price: '95100' });
    const closes = Array.from({ length: 10 }, (_, i) =>
      i % 2
        ? api(t, trader, '/v1/api/forex/close', { id: opened.data.Id })
        : t.ctx.services.trading.closeOrderByStaff(opened.data.Id).then(
            () => ({ code: 1 }),
            () => ({ code: 0 }),
          ),
    );
    // Source price 95210: quoted 95200 / 95220 with the spread of 20.
    t.ctx.services.market.publishTick({ symbolId: btc, bid: '95210', ask: '95210', time: Date.now() });
    const results = await Promise.all(closes);
    await t.ctx.services.trading.engine.idle();
    const byTrigger = (await api(t, trader, '/v1/api/forex/my_deal', { status: 3 })).data.data[0].ClosedType === 3 ? 1 : 0;
    expect(results.filter((r) => r.code === 1).length + byTrigger).toBe(1);
    expect(await closeTransactions(opened.data.Id)).toBe(1);
    await tick(t, BTC, '94990', '95010');
    await expectAuditClean(t);
  });

  it('never lets free margin go below zero when 200 submits race', async () => {
    const trader = await demoTrader(t);
    // 0.1 lot at 1:2 needs 4,750.50 margin and 0.30 fee: 21 of them fit in 100,000.
    const results = await Promise.all(
      Array.from({ length: 200 }, () => submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 2 })),
    );
    const accepted = results.filter((r) => r.code === 1);
    expect(accepted).toHaveLength(21);
    expect(results.filter((r) => r.code !== 1).every((r) => r.code === 2002)).toBe(true);
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '233.2', locked: '99760.5' });
    const detail = await api(t, trader, '/v1/api/main/account/forexDetail');
    expect(Number(detail.data.available_prepayment)).toBeGreaterThanOrEqual(0);
    await expectAuditClean(t);
  });
});
