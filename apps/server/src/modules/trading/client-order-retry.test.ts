import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../test/test-app.ts';
import { api, demoTrader, expectAuditClean, submit, symbolId, tick, tradingApp } from '../../../test/trading/test-kit.ts';

describe.each(dbTargets)('a retried order on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target);
  });
  afterAll(async () => t?.close());

  it("returns the first attempt's order, even when the market has moved past the retry's tolerance since", async () => {
    const trader = await demoTrader(t);
    const btc = symbolId(t, 'BTCUSDT');
    await tick(t, 'BTCUSDT', '94990', '95010');
    const params = { type: 1, cont: '0.1', forex_id: btc, multiple: 10, price: '95010', deviation: 100, client_order_id: 'retry-1' };
    const first = await submit(t, trader, params);
    expect(first.code, first.msg).toBe(1);
    // The answer was lost; the client sends the same request again after the price moved.
    await tick(t, 'BTCUSDT', '95500', '95520');
    const retry = await submit(t, trader, params);
    expect(retry.code, retry.msg).toBe(1);
    expect(retry.data.Id).toBe(first.data.Id);
    expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.total).toBe(1);
    await expectAuditClean(t);
  });
});
