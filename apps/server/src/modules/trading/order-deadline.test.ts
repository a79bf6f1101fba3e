/**
 * A trader's order held up past its deadline (a frozen server, a slow database, a long lock) is
 * refused, never executed late: the trader who was told "failed" never finds it open afterwards.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../test/test-app.ts';
import { api, demoTrader, expectAuditClean, submit, symbolId, tick, tradingApp } from '../../../test/trading/test-kit.ts';

const DEADLINE_MS = 300;

describe.each(dbTargets)('order deadlines on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target, { ORDER_DEADLINE_MS: String(DEADLINE_MS) });
  });
  afterAll(async () => t?.close());

  it('refuses an order and a close whose money transaction would start after the deadline, and runs them in time', async () => {
    const trader = await demoTrader(t);
    const btc = symbolId(t, 'BTCUSDT');
    await tick(t, 'BTCUSDT', '94990', '95010');
    const params = { type: 1, cont: '0.1', forex_id: btc, multiple: 10 };
    const hold = () => t.ctx.services.ledger.withLockedUser(trader.userId, () => sleep(DEADLINE_MS * 3));

    // The user's lock is held longer than the deadline (as a stalled transaction would).
    const held = hold();
    await sleep(20);
    const late = await submit(t, trader, params);
    await held;
    expect(late).toMatchObject({ code: 0, msg: 'Not executed: the request took too long to process. Check your positions and try again' });
    expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.total).toBe(0);

    const opened = await submit(t, trader, params);
    expect(opened.code, opened.msg).toBe(1);
    const heldAgain = hold();
    await sleep(20);
    const lateClose = await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id }, 'hk');
    await heldAgain;
    expect(lateClose).toMatchObject({ code: 0, msg: '未執行：請求處理時間過長。請檢查您的持倉後再試' });
    expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.total).toBe(1);

    const closed = await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id });
    expect(closed.code, closed.msg).toBe(1);
    await expectAuditClean(t);
  });
});
