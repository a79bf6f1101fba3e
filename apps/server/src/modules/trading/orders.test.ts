import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { dbTargets, type TestApp } from '../../../test/test-app.ts';
import { api, cashOf, demoTrader, expectAuditClean, pushesOf, submit, symbolId, tick, tradingApp } from '../../../test/trading/test-kit.ts';

const BTC = 'BTCUSDT';

describe.each(dbTargets)('orders on %s', (target) => {
  let t: TestApp;
  let btc: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
  });
  afterAll(async () => t?.close());

  it('opens a market buy at the ask, charges margin and fee, and closes it at the bid with the profit', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const opened = await submit(t, trader, { type: 1, cont: '0.5', forex_id: btc, status: 1, multiple: 10, target_price: '1' });
    expect(opened.code).toBe(1);
    expect(opened.data).toMatchObject({
      OrderType: 1,
      Status: 1,
      Quantity: '0.5',
      Multiple: 10,
      Price: '95010.00',
      CautionMoney: '4750.500000',
      TradeFee: '1.500000',
      ForexTradeLists: { Id: btc, Code: BTC, ShowCode: 'BTC/USDT', PricePrecision: 2 },
    });
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '95248', locked: '4750.5' });

    await tick(t, BTC, '95990', '96010');
    const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1, page: 1 });
    expect(holding.data).toMatchObject({ total: 1, all_fact_profits: '490.000000', balance: '95248.000000' });
    expect(holding.data.data[0]).toMatchObject({ Id: opened.data.Id, UpdatePrice: '95990.00', FactProfits: '490.000000' });
    const detail = await api(t, trader, '/v1/api/main/account/forexDetail');
    expect(detail.data).toMatchObject({
      balance: '95248.000000',
      lock_balance: '4750.500000',
      float_profit: '490.000000',
      equity: '100488.500000',
      available_prepayment: '95738.000000',
      risk_rate: '2115.32',
      prepayment_ratio: '4.73',
    });

    const pushes = pushesOf(t, trader.userId);
    const closed = await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id });
    pushes.stop();
    expect(closed.data).toMatchObject({ Status: 3, ClosedType: 1, UpdatePrice: '95990.00', FactProfits: '490.000000' });
    expect(pushes.messages).toContainEqual({ type: 'FOREX_CLOSED', id: [opened.data.Id], seq: expect.any(Number) });
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '100488.5', locked: '0' });

    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    expect(history.data).toMatchObject({ total: 1, all_fact_profits: '490.000000' });
    expect(history.data.data[0].CompleteTimeHandler).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await expectAuditClean(t);
  });

  it('converts a JPY-quoted margin and profit to USD, and charges a fixed margin on LTCUSDT', async () => {
    const trader = await demoTrader(t);
    await tick(t, 'USDJPY', '149.993', '150.007');
    const jpy = await submit(t, trader, { type: 1, cont: '0.5', forex_id: symbolId(t, 'USDJPY'), multiple: 100 });
    expect(jpy.data).toMatchObject({ Price: '150.007', CautionMoney: '500.023333', TradeFee: '2.500000' });
    await tick(t, 'USDJPY', '151.000', '151.014');
    const closed = await api(t, trader, '/v1/api/forex/close', { id: jpy.data.Id });
    expect(closed.data).toMatchObject({ UpdatePrice: '151.000', FactProfits: '328.792705' });
    await tick(t, 'LTCUSDT', '100.00', '100.10');
    const ltc = await submit(t, trader, { type: 2, cont: '2.5', forex_id: symbolId(t, 'LTCUSDT'), multiple: 5 });
    expect(ltc.data).toMatchObject({ Price: '100.00', CautionMoney: '25.000000', TradeFee: '0.075000' });
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '100301.217705', locked: '25' });
    await expectAuditClean(t);
  });

  it('answers a second close, and another user closing the order, as a missing order', async () => {
    const owner = await demoTrader(t);
    const other = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const opened = await submit(t, owner, { type: 2, cont: '0.1', forex_id: btc, multiple: 20 });
    expect(opened.data).toMatchObject({ Price: '94990.00', Status: 1 });
    const stranger = await api(t, other, '/v1/api/forex/close', { id: opened.data.Id });
    const missing = await api(t, owner, '/v1/api/forex/close', { id: 99_999_999 });
    expect(stranger).toMatchObject({ code: missing.code, msg: 'Order not found or already closed' });
    expect(await api(t, other, '/v1/api/forex/set_stop_price', { id: opened.data.Id, target_profit_price: '90000' })).toMatchObject({
      code: missing.code,
      msg: missing.msg,
    });
    expect((await api(t, owner, '/v1/api/forex/close', { id: opened.data.Id })).code).toBe(1);
    expect(await api(t, owner, '/v1/api/forex/close', { id: opened.data.Id })).toMatchObject({ code: missing.code, msg: missing.msg });
    await expectAuditClean(t);
  });

  it('places pending limit and stop orders with a reservation, fills them at the gap price and refunds a cancel', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const limit = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, status: 0, target_price: '94000', multiple: 10 });
    expect(limit.data).toMatchObject({ Status: 0, OriginPrice: '94000.00', Price: '0', CautionMoney: '940.000000', TradeFee: '0.300000' });
    const stop = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, status: 0, target_price: '96000', multiple: 10 });
    expect(stop.data).toMatchObject({ Status: 0, CautionMoney: '960.000000' });
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '98099.4', locked: '1900.6' });

    const pushes = pushesOf(t, trader.userId);
    // A gap down through the limit: filled at the tick's ask, margin recomputed at that price.
    await tick(t, BTC, '93490', '93510');
    const filled = await api(t, trader, '/v1/api/forex/my_deal', { status: 1 });
    expect(filled.data.data).toHaveLength(1);
    expect(filled.data.data[0]).toMatchObject({ Id: limit.data.Id, Price: '93510.00', CautionMoney: '935.100000', TradeFee: '0.300000' });
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '98104.3', locked: '1895.4' });

    const cancelled = await api(t, trader, '/v1/api/forex/cancel_trade', { id: stop.data.Id });
    expect(cancelled.data).toMatchObject({ Status: 4, CancelReason: 'user' });
    expect(pushes.messages).toContainEqual({ type: 'FOREX_CLOSED', id: [stop.data.Id], seq: expect.any(Number) });
    pushes.stop();
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '99064.6', locked: '935.1' });
    expect((await api(t, trader, '/v1/api/forex/cancel_trade', { id: stop.data.Id })).code).not.toBe(1);
    expect((await api(t, trader, '/v1/api/forex/cancel_trade', { id: limit.data.Id })).code).not.toBe(1);
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    expect(history.data.data.map((o: { Id: number }) => o.Id)).toEqual([stop.data.Id]);
    await api(t, trader, '/v1/api/forex/close', { id: limit.data.Id });
    await expectAuditClean(t);
  });

  it('cancels a pending order at the fill when the account no longer covers its margin', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    // A buy limit (not a hedge of the buy below: it raises the margin required, so it needs free margin).
    const stop = await submit(t, trader, { type: 1, cont: '1', forex_id: btc, status: 0, target_price: '94000', multiple: 2 });
    expect(stop.data).toMatchObject({ Status: 0, CautionMoney: '47000.000000' });
    expect((await submit(t, trader, { type: 1, cont: '1', forex_id: btc, multiple: 2 })).code).toBe(1);
    // The gap fills the buy limit at 80,020 (40,013 needed) while the open buy lost 15,010.
    await tick(t, BTC, '80000', '80020');
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    expect(history.data.data[0]).toMatchObject({ Id: stop.data.Id, Status: 4, CancelReason: 'insufficient_margin' });
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '52492', locked: '47505' });
    await tick(t, BTC, '94990', '95010');
    await expectAuditClean(t);
  });

  it('closes on take-profit and stop-loss at the triggering tick price, once', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const buy = await submit(t, trader, {
      type: 1,
      cont: '0.1',
      forex_id: btc,
      multiple: 10,
      target_profit_price: '95500',
      stop_loss_price: '94500',
    });
    const sell = await submit(t, trader, {
      type: 2,
      cont: '0.1',
      forex_id: btc,
      multiple: 10,
      target_profit_price: '94000',
      stop_loss_price: '95600',
    });
    expect(buy.code).toBe(1);
    expect(sell.code).toBe(1);
    const pushes = pushesOf(t, trader.userId);
    await tick(t, BTC, '95700', '95720');
    pushes.stop();
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    const byId = Object.fromEntries(history.data.data.map((o: { Id: number }) => [o.Id, o]));
    expect(byId[buy.data.Id]).toMatchObject({ ClosedType: 3, UpdatePrice: '95700.00', FactProfits: '69.000000' });
    expect(byId[sell.data.Id]).toMatchObject({ ClosedType: 4, UpdatePrice: '95720.00', FactProfits: '-73.000000' });
    expect(
      pushes.messages
        .filter((m) => m.type === 'FOREX_CLOSED')
        .flatMap((m) => m.id)
        .sort(),
    ).toEqual([buy.data.Id, sell.data.Id].sort());
    await tick(t, BTC, '95800', '95820');
    expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 3 })).data.total).toBe(2);
    await expectAuditClean(t);
  });

  it('closes every take-profit of a user crossed by one tick together, with one FOREX_CLOSED push', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const ids: number[] = [];
    for (const tp of ['95100', '95200', '95300']) {
      const opened = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, target_profit_price: tp });
      expect(opened.code).toBe(1);
      ids.push(opened.data.Id);
    }
    const before = await cashOf(t, trader.userId);
    const pushes = pushesOf(t, trader.userId);
    await tick(t, BTC, '95400', '95420');
    pushes.stop();
    const closedPushes = pushes.messages.filter((m) => m.type === 'FOREX_CLOSED');
    expect(closedPushes).toHaveLength(1);
    expect([...closedPushes[0].id].sort()).toEqual([...ids].sort());
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    const closed = history.data.data.filter((o: { Id: number }) => ids.includes(o.Id));
    expect(closed.map((o: { ClosedType: number; UpdatePrice: string }) => [o.ClosedType, o.UpdatePrice])).toEqual([
      [3, '95400.00'],
      [3, '95400.00'],
      [3, '95400.00'],
    ]);
    // Each bought at 95010 and sold at 95400: 0.1 x 390 = 39 profit, and its margin back.
    const after = await cashOf(t, trader.userId);
    expect(after.locked).toBe('0');
    expect(dec(after.balance).minus(before.balance).toString()).toBe(
      dec(before.locked)
        .plus(3 * 39)
        .toString(),
    );
    await expectAuditClean(t);
  });

  it('edits take-profit and stop-loss on the right side only, and 0 removes one', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const buy = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10 });
    const wrong = await api(t, trader, '/v1/api/forex/set_stop_price', {
      id: buy.data.Id,
      target_profit_price: '94000',
      stop_loss_price: '0',
    });
    expect(wrong.msg).toBe('For a buy, the take-profit must be above 94990.00');
    const set = await api(t, trader, '/v1/api/forex/set_stop_price', {
      id: buy.data.Id,
      target_profit_price: '96000',
      stop_loss_price: '94000',
    });
    expect(set.data).toMatchObject({ TargetProfitPrice: '96000.00', TargetLossPrice: '94000.00' });
    const removed = await api(t, trader, '/v1/api/forex/set_stop_price', {
      id: buy.data.Id,
      target_profit_price: '0',
      stop_loss_price: '',
    });
    expect(removed.data).toMatchObject({ TargetProfitPrice: '0', TargetLossPrice: '0' });
    await tick(t, BTC, '96100', '96120');
    expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.total).toBe(1);
    await api(t, trader, '/v1/api/forex/set_stop_price', { id: buy.data.Id, stop_loss_price: '96050' });
    await tick(t, BTC, '96040', '96060');
    expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.total).toBe(0);
    await expectAuditClean(t);
  });

  it('makes one order per client order id', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const params = { type: 1, cont: '0.1', forex_id: btc, multiple: 10, client_order_id: 'abc-1' };
    const results = await Promise.all([submit(t, trader, params), submit(t, trader, params), submit(t, trader, params)]);
    expect(new Set(results.map((r) => r.data.Id)).size).toBe(1);
    expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.total).toBe(1);
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '99049.6', locked: '950.1' });
  });
});
