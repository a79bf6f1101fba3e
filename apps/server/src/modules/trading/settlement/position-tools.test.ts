import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@tp/contract/codes';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
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

/**
 * Position tools (issue 22) as scenario tables: given a trader's positions and a quote, an action,
 * then the expected fills, balances and ledger. BTCUSDT: contract size 1, price precision 2, fee 3 USD
 * per lot; EURGBP's profit converts through GBPUSD.
 */
const BTC = 'BTCUSDT';

describe.each(dbTargets)('position tools on %s', (target) => {
  let t: TestApp;
  let btc: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
  });
  afterAll(async () => t?.close());

  describe('partial close', () => {
    const table = [
      // lots closed of a 0.5-lot long opened at 95010 (margin 4750.5), closed at the bid 95990
      {
        close: '0.2',
        part: { Quantity: '0.2', FactProfits: '196.000000', CautionMoney: '1900.200000', TradeFee: '0.600000' },
        rest: { Quantity: '0.3', CautionMoney: '2850.300000', TradeFee: '0.900000' },
        cash: { balance: '97344.2', locked: '2850.3' },
      },
      {
        close: '0.45',
        part: { Quantity: '0.45', FactProfits: '441.000000', CautionMoney: '4275.450000', TradeFee: '1.350000' },
        rest: { Quantity: '0.05', CautionMoney: '475.050000', TradeFee: '0.150000' },
        cash: { balance: '99964.45', locked: '475.05' },
      },
    ];
    it.each(table)(
      'closes $close lots: the part closes under a new id with its profit, the rest keeps its id, stops and margin share',
      async (row) => {
        const trader = await demoTrader(t);
        await tick(t, BTC, '94990', '95010');
        const opened = await submit(t, trader, {
          type: 1,
          cont: '0.5',
          forex_id: btc,
          multiple: 10,
          target_profit_price: '99000',
          stop_loss_price: '90000',
        });
        expect(opened.data).toMatchObject({ CautionMoney: '4750.500000', TradeFee: '1.500000' });
        await tick(t, BTC, '95990', '96010');
        const pushes = pushesOf(t, trader.userId);
        const closed = await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id, cont: row.close });
        pushes.stop();
        expect(closed.code).toBe(1);
        expect(closed.data).toMatchObject({ ...row.part, Status: 3, ClosedType: 1, Price: '95010.00', UpdatePrice: '95990.00' });
        expect(closed.data.Id).not.toBe(opened.data.Id);
        expect(pushes.messages).toContainEqual({ type: 'FOREX_CLOSED', id: [closed.data.Id], seq: expect.any(Number) });
        const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1 });
        expect(holding.data.data).toHaveLength(1);
        expect(holding.data.data[0]).toMatchObject({
          ...row.rest,
          Id: opened.data.Id,
          Status: 1,
          TargetProfitPrice: '99000.00',
          TargetLossPrice: '90000.00',
        });
        expect(await cashOf(t, trader.userId)).toEqual(row.cash);
        await expectAuditClean(t);
      },
    );

    const refusals = [
      { cont: '0.6', msg: 'You can close at most 0.5 lots of this position' },
      { cont: '0.255', msg: 'The number of lots must be a multiple of 0.01' },
      { cont: '0', msg: undefined },
      { cont: 'abc', msg: undefined },
    ];
    it.each(refusals)('refuses cont=$cont and leaves the position whole', async ({ cont, msg }) => {
      const trader = await demoTrader(t);
      await tick(t, BTC, '94990', '95010');
      const opened = await submit(t, trader, { type: 1, cont: '0.5', forex_id: btc, multiple: 10 });
      const res = await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id, cont });
      expect(res.code).not.toBe(1);
      if (msg) expect(res.msg).toBe(msg);
      const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1 });
      expect(holding.data.data[0]).toMatchObject({ Id: opened.data.Id, Quantity: '0.5' });
      await expectAuditClean(t);
    });
  });

  describe('close by type', () => {
    it.each([
      { type: 1, forexOnly: true, closes: ['btc buy'], stays: ['btc sell', 'eth buy'] },
      { type: 2, forexOnly: false, closes: ['btc sell'], stays: ['btc buy', 'eth buy'] },
      { type: 1, forexOnly: false, closes: ['btc buy', 'eth buy'], stays: ['btc sell'] },
      { type: 0, forexOnly: true, closes: ['btc buy', 'btc sell'], stays: ['eth buy'] },
      { type: 0, forexOnly: false, closes: ['btc buy', 'btc sell', 'eth buy'], stays: [] },
    ])('type $type (BTC only: $forexOnly) closes $closes', async ({ type, forexOnly, closes, stays }) => {
      const trader = await demoTrader(t);
      await tick(t, BTC, '94990', '95010');
      const eth = symbolId(t, 'ETHUSDT');
      const ids: Record<string, number> = {
        'btc buy': (await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10 })).data.Id,
        'btc sell': (await submit(t, trader, { type: 2, cont: '0.1', forex_id: btc, multiple: 10 })).data.Id,
        'eth buy': (await submit(t, trader, { type: 1, cont: '0.1', forex_id: eth, multiple: 10 })).data.Id,
      };
      const res = await api(t, trader, '/v1/api/forex/batch_Close_by_type', { type, ...(forexOnly ? { forex_id: btc } : {}) });
      expect(res.code).toBe(1);
      expect(res.data.closed.map((o: { Id: number }) => o.Id).sort()).toEqual(closes.map((k) => ids[k]).sort());
      expect(res.data.failed).toEqual([]);
      const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1 });
      expect(holding.data.data.map((o: { Id: number }) => o.Id).sort()).toEqual(stays.map((k) => ids[k]).sort());
      await expectAuditClean(t);
    });

    it('closes each position exactly once while take-profits fire at the same time', async () => {
      const trader = await demoTrader(t);
      await tick(t, BTC, '94990', '95010');
      const opened = [];
      for (let i = 0; i < 6; i++)
        opened.push((await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, target_profit_price: '95500' })).data.Id);
      const [batch] = await Promise.all([
        api(t, trader, '/v1/api/forex/batch_Close_by_type', { type: 0 }),
        tick(t, BTC, '95600', '95620'),
        api(t, trader, '/v1/api/forex/batch_Close_by_type', { type: 1, forex_id: btc }),
      ]);
      expect(batch.code).toBe(1);
      await t.ctx.services.trading.engine.idle();
      const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3, limit: 50 });
      expect(history.data.data.map((o: { Id: number }) => o.Id).sort()).toEqual([...opened].sort());
      expect((await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.total).toBe(0);
      expect(await cashOf(t, trader.userId)).toMatchObject({ locked: '0' });
      await expectAuditClean(t);
    });
  });

  describe('slippage tolerance on a market order', () => {
    // A buy fills at the ask, a sell at the bid; BTC has 2 decimals, so 300 points are 3.00 USD (its spread is 20).
    it.each([
      { side: 'buy', type: 1, seen: '95010', deviation: 300, quote: ['94992', '95012'], fills: '95012.00' },
      { side: 'buy', type: 1, seen: '95010', deviation: 300, quote: ['95000', '95020'], requote: '95020.00' },
      { side: 'buy', type: 1, seen: '95010', deviation: 0, quote: ['94985', '95005'], fills: '95005.00' },
      { side: 'sell', type: 2, seen: '94990', deviation: 300, quote: ['94980', '95000'], requote: '94980.00' },
      { side: 'sell', type: 2, seen: '94990', deviation: 300, quote: ['94995', '95015'], fills: '94995.00' },
      { side: 'sell', type: 2, seen: '94990', deviation: undefined, quote: ['94989', '95009'], fills: '94989.00' },
    ])('$side seen at $seen, tolerance $deviation, quote $quote', async (row) => {
      const trader = await demoTrader(t);
      await tick(t, BTC, row.quote[0]!, row.quote[1]!);
      const res = await submit(t, trader, {
        type: row.type,
        cont: '0.1',
        forex_id: btc,
        multiple: 10,
        price: row.seen,
        deviation: row.deviation,
      });
      if (row.fills) {
        expect(res.code).toBe(1);
        expect(res.data.Price).toBe(row.fills);
      } else {
        expect(res.code).toBe(Code.REQUOTE);
        expect(res.msg).toContain(row.requote);
        expect(res.data).toMatchObject({ price: row.requote });
        expect(await cashOf(t, trader.userId)).toEqual({ balance: '100000', locked: '0' });
      }
    });
  });

  it('reverses a position in one transaction: the buy closes, a sell of the same lots opens', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const opened = await submit(t, trader, { type: 1, cont: '0.5', forex_id: btc, multiple: 10 });
    await tick(t, BTC, '95990', '96010');
    const reversed = await api(t, trader, '/v1/api/forex/reverse', { id: opened.data.Id });
    expect(reversed.code).toBe(1);
    expect(reversed.data).toMatchObject({
      OrderType: 2,
      Status: 1,
      Quantity: '0.5',
      Multiple: 10,
      Price: '95990.00',
      CautionMoney: '4799.500000',
    });
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    expect(history.data.data[0]).toMatchObject({ Id: opened.data.Id, FactProfits: '490.000000' });
    // 100000 - 1.5 fee + 490 profit - 4799.5 margin - 1.5 fee
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '95687.5', locked: '4799.5' });
    await expectAuditClean(t);
  });

  it("answers my_deal status -1 with every order, and deal with one symbol's terms and orders", async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const a = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10 });
    const b = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, status: 0, target_price: '90000' });
    await api(t, trader, '/v1/api/forex/close', { id: a.data.Id });
    const c = await submit(t, trader, { type: 2, cont: '0.2', forex_id: btc, multiple: 10 });
    const all = await api(t, trader, '/v1/api/forex/my_deal', { status: -1 });
    expect(all.code).toBe(1);
    expect(all.data.data.map((o: { Id: number }) => o.Id)).toEqual([c.data.Id, b.data.Id, a.data.Id]);
    const deal = await api(t, trader, '/v1/api/forex/deal', { forex_id: btc });
    expect(deal.code).toBe(1);
    expect(deal.data).toMatchObject({ forex_id: btc, min_lots: '0.01', lot_step: '0.01', multiples: expect.arrayContaining([10]) });
    expect(deal.data.deviation).toBeGreaterThan(0);
    expect(deal.data.orders.map((o: { Id: number }) => o.Id)).toEqual([c.data.Id, b.data.Id]);
  });

  it("announces a take-profit close with a NOTICE push and lists it in the notices; the trader's own close is not announced", async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const tp = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, target_profit_price: '95500' });
    const own = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10 });
    const pushes = pushesOf(t, trader.userId);
    await api(t, trader, '/v1/api/forex/close', { id: own.data.Id });
    await tick(t, BTC, '95600', '95620');
    pushes.stop();
    const notices = pushes.messages.filter((m) => m.type === 'NOTICE');
    expect(notices).toEqual([
      expect.objectContaining({
        type: 'NOTICE',
        kind: 'take_profit',
        order_id: tp.data.Id,
        symbol: 'BTC/USDT',
        price: '95600.00',
        profit: '59.000000',
        lots: '0.1',
      }),
    ]);
    const listed = await api(t, trader, '/v1/api/forex/notices', { page: 1 });
    expect(listed.data).toMatchObject({ total: 1, data: [{ kind: 'take_profit', order_id: tp.data.Id }] });
  });
});
