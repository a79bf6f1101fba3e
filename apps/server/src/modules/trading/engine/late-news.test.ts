/**
 * The books learn of an order after the tick that crosses its level (on several servers the bus or
 * the change log can bring it late; on one, the price can move between its admission and its commit):
 * the level is checked against the newest accepted quote at once, not at the next crossing tick.
 */
import { ClosedType, OrderStatus } from '@tp/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { findOrder } from '../db/repository.ts';
import { demoTrader, expectAuditClean, submit, symbolId, tick, tradingApp } from '../../../../test/trading/test-kit.ts';

describe.each(dbTargets)('an order the engine learns of late, on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target);
  });
  afterAll(async () => t?.close());

  const engine = () => t.ctx.services.trading.engine;

  it('fires a take-profit crossed before the books knew of the position, once, at the newest price', async () => {
    const trader = await demoTrader(t);
    const btc = symbolId(t, 'BTCUSDT');
    await tick(t, 'BTCUSDT', '95000', '95020');
    const opened = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, target_profit_price: '96000' });
    expect(opened.code, opened.msg).toBe(1);
    const id = opened.data.Id as number;
    const row = (await findOrder(t.ctx.db, id))!;
    await engine().idle();

    // The books lose the position (as a server that has not heard of it yet), the price crosses the level…
    engine().apply([{ type: 'sync', orderId: id, order: undefined }]);
    await tick(t, 'BTCUSDT', '96100', '96120');
    await engine().idle();
    expect((await findOrder(t.ctx.db, id))!.status).toBe(OrderStatus.OPEN);

    // …and the news arrives: no further tick is needed.
    engine().apply([{ type: 'sync', orderId: id, order: row }]);
    await engine().idle();
    const closed = (await findOrder(t.ctx.db, id))!;
    expect(closed.status).toBe(OrderStatus.CLOSED);
    expect(closed.closedType).toBe(ClosedType.TAKE_PROFIT);
    expect(Number(closed.closePrice)).toBeGreaterThanOrEqual(96000);
    await expectAuditClean(t);
  });

  it('does not fire a level the newest quote has not crossed', async () => {
    const trader = await demoTrader(t);
    const btc = symbolId(t, 'BTCUSDT');
    await tick(t, 'BTCUSDT', '95000', '95020');
    const opened = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, target_profit_price: '97000' });
    expect(opened.code, opened.msg).toBe(1);
    const id = opened.data.Id as number;
    const row = (await findOrder(t.ctx.db, id))!;
    engine().apply([{ type: 'sync', orderId: id, order: undefined }]);
    engine().apply([{ type: 'sync', orderId: id, order: row }]);
    await engine().idle();
    expect((await findOrder(t.ctx.db, id))!.status).toBe(OrderStatus.OPEN);
  });
});
