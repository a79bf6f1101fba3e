/**
 * The engine when its database statements fail for a while: a stop-loss whose close failed, and
 * whose first re-read failed too, still fires once the database answers again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { findOrder } from '../db/repository.ts';
import { demoTrader, expectAuditClean, submit, symbolId, tick, tradingApp } from '../../../../test/trading/test-kit.ts';

describe.each(dbTargets)('engine jobs through a database outage on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target);
  });
  afterAll(async () => t?.close());

  it('retries a failed stop-loss until it fires, however many reads fail meanwhile', async () => {
    const trader = await demoTrader(t);
    const btc = symbolId(t, 'BTCUSDT');
    await tick(t, 'BTCUSDT', '95000', '95020');
    const opened = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, stop_loss_price: '94500' });
    expect(opened.code, opened.msg).toBe(1);
    const id = opened.data.Id as number;

    // Statements fail: the engine's close and its reads of the order.
    const engine = t.ctx.services.trading.engine as unknown as { executor: Record<string, (...a: unknown[]) => Promise<unknown>> };
    const executor = engine.executor;
    const run = executor.run!;
    const closeAll = executor.closeAll!;
    const db = t.ctx.db as unknown as { select: (...a: unknown[]) => unknown };
    const select = db.select;
    const down = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    executor.run = down;
    executor.closeAll = down;
    db.select = () => {
      throw new Error('Connection terminated unexpectedly');
    };
    const outageEnds = Date.now() + 3_000;
    try {
      // A feed that moves: each crossing tick differs from the last.
      for (let i = 0; Date.now() < outageEnds; i++) {
        await tick(t, 'BTCUSDT', String(94400 - (i % 2) * 10), String(94420 - (i % 2) * 10));
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      executor.run = run;
      executor.closeAll = closeAll;
      db.select = select;
    }
    const back = Date.now();

    // The database answers again: the next crossing ticks close the position, within 2 s.
    let closedAt = 0;
    for (let i = 0; Date.now() - back < 5_000; i++) {
      await tick(t, 'BTCUSDT', String(94380 - (i % 2) * 10), String(94400 - (i % 2) * 10));
      if ((await findOrder(t.ctx.db, id))?.status === 3) {
        closedAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(closedAt, 'stop-loss never fired after the outage').toBeGreaterThan(0);
    expect(closedAt - back).toBeLessThan(2_000);
    await expectAuditClean(t);
  });
});
