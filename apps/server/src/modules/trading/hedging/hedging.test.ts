/**
 * A-book hedging over a real FIX 4.4 session on 127.0.0.1 against the FIX simulator: a client's
 * market order and close are sent to the provider first and filled at its price; a price beyond the
 * client's deviation or a provider's reject is a requote; a timeout and a partial fill refuse the client's order
 * and show a mismatch; the hedge book keeps the net position per provider and symbol exactly once.
 * Hybrid: the house keeps its clients' net up to the group's threshold and the reconciler hedges the rest.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@tp/contract/codes';
import { dec } from '@tp/contract/decimal';
import { hedgeOrders } from '../db/schema.ts';
import { staffSession } from '../../../../test/auth-helpers.ts';
import { call, createTestApp, type DbTarget, dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { api, demoTrader, expectAuditClean, liveQuotes, submit, type Trader } from '../../../../test/trading/test-kit.ts';
import { FixSimulator } from '../../market/sources/fix-simulator.ts';
import { localFixSession } from '../../../../test/trading/server-process.ts';
import type { MarketServiceImpl } from '../../market/market-service.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

/** A test app whose price source is one FIX session to a simulator quoting BTC/USDT, and a demo trader moved into a new group of `book`. */
async function hedgeApp(target: DbTarget, book: 'A' | 'hybrid', symbols: (btc: number) => Record<string, unknown>[] = () => []) {
  const session = await localFixSession();
  const t = await createTestApp(
    target,
    { MARKET_ALWAYS_OPEN: '1', DEMO_CREATE_RATE_LIMIT: '100000' },
    {
      PRICE_SOURCE: 'fix',
      fix: { mode: 'failover', sessions: [session], hedge: { timeoutMs: 500, orderType: 'limit', reconcileSeconds: 60 } },
    },
  );
  await liveQuotes(t);
  await t.ctx.services.trading.engine.start();
  const market = t.ctx.services.market as MarketServiceImpl;
  const btc = market.symbolByCode('BTCUSDT')!;
  const mid = dec(market.quote(btc.id)!.mid);
  const sim = new FixSimulator(session, t.ctx.log, [
    { symbol: 'BTC/USDT', bid: mid.minus(5).toString(), ask: mid.plus(5).toString(), time: Date.now() },
  ]);
  await sim.start();
  await t.ctx.services.priceSource.start();
  await until(() => t.ctx.services.trading.hedges.available(btc.id));
  const trader = await demoTrader(t);
  const risk = await staffSession(t, ['risk']);
  const saved = await call(
    t,
    'POST',
    '/api/admin/groups/save',
    { name: `${book}-book ${target}`, kind: 'demo', book, symbols: symbols(btc.id) },
    { token: risk, json: true },
  );
  expect(saved.code).toBe(1);
  const moved = await call(t, 'POST', '/api/admin/users/set_group', { user_id: trader.userId, group_id: saved.data.id }, { token: risk });
  expect(moved.code).toBe(1);
  return { t, sim, trader, risk, groupId: saved.data.id as number };
}

describe.each(dbTargets)('A-book hedging over FIX 4.4 (%s)', (target) => {
  let t: TestApp;
  let sim: FixSimulator;
  let trader: Trader;
  let risk = '';
  let groupId = 0;
  const market = () => t.ctx.services.market as MarketServiceImpl;
  const hedges = () => t.ctx.services.trading.hedges;
  const btc = () => market().symbolByCode('BTCUSDT')!;
  const netUnits = async () => (await hedges().netBySymbol()).get(btc().id)?.toString() ?? '0';
  const open = async () => (await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.data as Array<{ Id: number }>;
  const metric = async (re: RegExp) => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(re.exec(text)?.[1] ?? 0);
  };
  /** The provider's quote near the server's current mid. */
  const quoteNear = (half: number) => {
    const mid = dec(market().quote(btc().id)!.mid);
    return { symbol: 'BTC/USDT', bid: mid.minus(half).toString(), ask: mid.plus(half).toString(), time: Date.now() };
  };
  const buy = (lots = '0.1') =>
    submit(t, trader, { type: 1, cont: lots, forex_id: btc().id, multiple: 10, price: market().quote(btc().id)!.ask });

  beforeAll(async () => {
    ({ t, sim, trader, risk, groupId } = await hedgeApp(target, 'A'));
  });
  afterAll(async () => {
    t?.ctx.services.priceSource.stop();
    sim?.stop();
    await t?.close();
  });

  it('a market buy is sent to the provider (limit IOC at the worst price within deviation) and filled at its price', async () => {
    const q = quoteNear(5);
    sim.push(q);
    await until(() => dec(market().quote(btc().id)!.mid).eq(dec(q.bid).plus(q.ask).div(2)));
    const res = await buy();
    expect(res.code).toBe(1);
    const sent = sim.ordersReceived.at(-1)!;
    expect(sent).toMatchObject({ symbol: 'BTC/USDT', side: '1', quantity: '0.1', ordType: '2', timeInForce: '3' });
    // Filled at the provider's ask, not the server's marked-up one.
    expect(dec(res.data.Price).eq(q.ask)).toBe(true);
    const [row] = await t.ctx.db
      .select()
      .from(hedgeOrders)
      .where(eq(hedgeOrders.clOrdId, (await lastHedge()).clOrdId));
    expect(row).toMatchObject({ status: 'filled', reason: 'a_open', clientOrderIds: [res.data.Id], mismatch: null });
    expect(await netUnits()).toBe('0.1');
    // The same report again changes nothing.
    await hedges().report({
      session: 'lp1',
      kind: 'execution',
      clOrdId: row!.clOrdId,
      orderId: 'x',
      execId: 'again',
      execType: 'F',
      ordStatus: '2',
      lastPx: q.ask,
      lastQty: '0.1',
      avgPx: q.ask,
      cumQty: '0.1',
      leavesQty: '0',
      text: null,
    });
    expect(await netUnits()).toBe('0.1');
  });

  it('the close is mirrored (a sell to the provider) and settled at the provider bid', async () => {
    const [pos] = await open();
    const q = quoteNear(5);
    sim.push(q);
    await until(() => dec(market().quote(btc().id)!.mid).eq(dec(q.bid).plus(q.ask).div(2)));
    const res = await api(t, trader, '/v1/api/forex/close', { id: pos!.Id });
    expect(res.code).toBe(1);
    expect(sim.ordersReceived.at(-1)).toMatchObject({ side: '2', quantity: '0.1' });
    expect(dec(res.data.UpdatePrice).eq(q.bid)).toBe(true);
    expect(await lastHedge()).toMatchObject({ reason: 'a_close', status: 'filled', clientOrderIds: [pos!.Id] });
    expect(await netUnits()).toBe('0');
  });

  it("a group's spread markup goes on the provider's price: bought at its ask plus the markup, closed at its bid less it", async () => {
    const terms = async (points: number) => {
      const saved = await call(
        t,
        'POST',
        '/api/admin/groups/save',
        { id: groupId, symbols: points ? [{ symbol_id: btc().id, spread_markup_points: points }] : [] },
        { token: risk, json: true },
      );
      expect(saved.code, saved.msg).toBe(1);
      if (saved.data.pending_change_id) {
        const second = await staffSession(t, ['risk']);
        expect((await call(t, 'POST', '/api/admin/changes/approve', { id: saved.data.pending_change_id }, { token: second })).code).toBe(1);
      }
    };
    // 200 points at 2 decimals: 1.00 on the ask, 1.00 off the bid.
    await terms(200);
    try {
      const q = quoteNear(5);
      sim.push(q);
      await until(() => dec(market().quote(btc().id)!.mid).eq(dec(q.bid).plus(q.ask).div(2)));
      const net = dec(await netUnits());
      const shown = dec(market().quote(btc().id)!.ask).plus(1).toFixed(2);
      const res = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc().id, multiple: 10, price: shown });
      expect(res.code, res.msg).toBe(1);
      expect(dec(res.data.Price).toFixed(2)).toBe(dec(q.ask).plus(1).toFixed(2));
      expect(
        dec(await netUnits())
          .minus(net)
          .toString(),
      ).toBe('0.1');
      const closed = await api(t, trader, '/v1/api/forex/close', { id: res.data.Id });
      expect(closed.code, closed.msg).toBe(1);
      expect(dec(closed.data.UpdatePrice).toFixed(2)).toBe(dec(q.bid).minus(1).toFixed(2));
      expect(
        dec(await netUnits())
          .minus(net)
          .toString(),
      ).toBe('0');
    } finally {
      await terms(0);
    }
  });

  it('a provider price beyond the client deviation is a requote and no position opens', async () => {
    sim.orders = { ...sim.orders, price: dec(quoteNear(5).ask).plus(5000).toString() };
    try {
      const res = await buy();
      expect(res.code).not.toBe(1);
      expect(res.msg).toMatch(/price changed/i);
      expect(await open()).toEqual([]);
      expect(await lastHedge()).toMatchObject({ status: 'cancelled', filledQty: '0.000000' });
      expect(await netUnits()).toBe('0');
    } finally {
      sim.orders = { ...sim.orders, price: null };
    }
  });

  it('a provider reject becomes a requote at the price now (no position opens), counted and marked as a mismatch', async () => {
    const before = await metric(/^tp_hedge_mismatch_total\{reason="rejected"\} (\d+)/m);
    sim.orders = { ...sim.orders, reject: 'no liquidity' };
    try {
      const res = await buy();
      expect(res.code).toBe(Code.REQUOTE);
      expect(res.msg).toMatch(/price changed/i);
      expect(res.data.price).toBe(market().quote(btc().id)!.ask);
      expect(await open()).toEqual([]);
      expect(await lastHedge()).toMatchObject({ status: 'rejected', mismatch: 'rejected', text: 'no liquidity' });
      expect(await metric(/^tp_hedge_mismatch_total\{reason="rejected"\} (\d+)/m)).toBe(before + 1);
      expect(await metric(/^tp_hedge_orders_total\{result="rejected",reason="a_open"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    } finally {
      sim.orders = { ...sim.orders, reject: null };
    }
  });

  it('no answer in time refuses the order and shows a timeout mismatch', async () => {
    sim.orders = { ...sim.orders, silent: true };
    try {
      const res = await buy();
      expect(res.code).not.toBe(1);
      expect(res.msg).toMatch(/liquidity provider did not fill/);
      expect(await open()).toEqual([]);
      expect(await lastHedge()).toMatchObject({ status: 'timeout', mismatch: 'timeout' });
      expect(await metric(/^tp_hedge_mismatch_total\{reason="timeout"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    } finally {
      sim.orders = { ...sim.orders, silent: false };
    }
  });

  it('a partial fill refuses the order, is unwound and shows a partial mismatch', async () => {
    sim.orders = { ...sim.orders, partial: '0.5' };
    const count = sim.ordersReceived.length;
    try {
      const res = await buy('0.2');
      expect(res.code).not.toBe(1);
      expect(await open()).toEqual([]);
      // The half filled went back to the provider (unwind: a sell of 0.1, itself half filled by this provider).
      expect(sim.ordersReceived.slice(count).map((o) => [o.side, o.quantity])).toEqual([
        ['1', '0.2'],
        ['2', '0.1'],
      ]);
      const rows = await t.ctx.db.select().from(hedgeOrders).orderBy(hedgeOrders.id);
      const [first, unwind] = rows.slice(-2);
      expect(first).toMatchObject({ reason: 'a_open', status: 'cancelled', filledQty: '0.100000' });
      // The provider filled half of the unwind too: that is a mismatch staff must settle.
      expect(first!.mismatch).toBe('unwind_failed');
      expect(unwind).toMatchObject({ reason: 'unwind', side: 'sell' });
      expect(await metric(/^tp_hedge_mismatch_total\{reason="partial"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
      expect(await netUnits()).toBe('0.05');
    } finally {
      sim.orders = { ...sim.orders, partial: null };
    }
  });

  it('an order refused by the admission after the provider filled it (margin) is unwound: no client position, no hedge', async () => {
    const count = sim.ordersReceived.length;
    // 10 lots at 1:2 need about 475,000 USD of margin; the demo account has 100,000.
    const res = await submit(t, trader, { type: 1, cont: '10', forex_id: btc().id, multiple: 2 });
    expect(res.code).not.toBe(1);
    expect(res.msg).toMatch(/margin/i);
    expect(await open()).toEqual([]);
    expect(sim.ordersReceived.slice(count).map((o) => [o.side, o.quantity])).toEqual([
      ['1', '10'],
      ['2', '10'],
    ]);
    expect(await lastHedge()).toMatchObject({ reason: 'unwind', status: 'filled' });
    expect(await netUnits()).toBe('0.05');
  });

  it('a provider answering late but within the timeout fills the client', async () => {
    sim.orders = { ...sim.orders, latencyMs: 200 };
    try {
      const res = await buy();
      expect(res.code).toBe(1);
      expect(await lastHedge()).toMatchObject({ status: 'filled', reason: 'a_open', clientOrderIds: [res.data.Id] });
      expect(await netUnits()).toBe('0.15');
    } finally {
      sim.orders = { ...sim.orders, latencyMs: 0 };
    }
  });

  it('a retry with the same client order id while the hedge is on its way sends no second hedge and answers the same order', async () => {
    sim.orders = { ...sim.orders, latencyMs: 150 };
    const count = sim.ordersReceived.length;
    try {
      const params = { type: 1, cont: '0.1', forex_id: btc().id, multiple: 10, client_order_id: 'a-book-retry-1' };
      const [a, b] = await Promise.all([submit(t, trader, params), submit(t, trader, params)]);
      expect([a.code, b.code]).toEqual([1, 1]);
      expect(a.data.Id).toBe(b.data.Id);
      expect(sim.ordersReceived.length).toBe(count + 1);
      // Later, the retry finds the order written.
      expect((await submit(t, trader, params)).data.Id).toBe(a.data.Id);
      expect(sim.ordersReceived.length).toBe(count + 1);
      expect(await netUnits()).toBe('0.25');
    } finally {
      sim.orders = { ...sim.orders, latencyMs: 0 };
    }
  });

  it('a provider that drops the connection when the order arrives: refused after the timeout, and orders flow again after the reconnect', async () => {
    sim.orders = { ...sim.orders, disconnect: true };
    try {
      const res = await buy();
      expect(res.code).not.toBe(1);
      expect(await lastHedge()).toMatchObject({ status: 'timeout', mismatch: 'timeout' });
    } finally {
      sim.orders = { ...sim.orders, disconnect: false };
    }
    await until(() => hedges().available(btc().id));
    sim.push(quoteNear(5));
    await sleep(100);
    expect((await buy()).code).toBe(1);
    expect(await netUnits()).toBe('0.35');
    expect((await open()).length).toBe(3);
  });

  it('what the engine closes by itself (a take-profit) and what was left unwound are brought to the A-book net by the reconciler', async () => {
    const before = await open();
    expect(before.length).toBe(3);
    const bid = dec(market().quote(btc().id)!.bid);
    const tp = bid.plus(20).toFixed(2);
    expect((await api(t, trader, '/v1/api/forex/set_stop_price', { id: before[0]!.Id, target_profit_price: tp })).code).toBe(1);
    const q = quoteNear(5);
    sim.push({ ...q, bid: dec(q.bid).plus(80).toString(), ask: dec(q.ask).plus(80).toString() });
    await until(async () => (await open()).length === 2);
    // The take-profit was not sent to the provider (0.35 held: three positions and 0.05 left by the failed unwind).
    expect(await netUnits()).toBe('0.35');
    await t.ctx.services.trading.hedgeReconciler.pass();
    expect(await netUnits()).toBe('0.2');
    expect(sim.ordersReceived.at(-1)).toMatchObject({ side: '2', quantity: '0.15', ordType: '1' });
  });

  /** Pushes a provider quote near the mid and waits until the server quotes it. */
  const quoteNow = async () => {
    const q = quoteNear(5);
    sim.push(q);
    await until(() => dec(market().quote(btc().id)!.mid).eq(dec(q.bid).plus(q.ask).div(2)));
    return q;
  };
  const position = async (id: number) =>
    (await api(t, trader, '/v1/api/forex/my_deal', { status: 1 })).data.data.find((o: { Id: number }) => o.Id === id) as
      { Id: number; Quantity: string; OrderType: number; Price: string } | undefined;
  let third = 0;

  it("a partial close sends the part to the provider first and closes it at the provider's bid; the rest stays open", async () => {
    expect(await netUnits()).toBe('0.2');
    third = (await buy('0.3')).data.Id;
    expect(await netUnits()).toBe('0.5');
    const q = await quoteNow();
    const count = sim.ordersReceived.length;
    const res = await api(t, trader, '/v1/api/forex/close', { id: third, cont: '0.1' });
    expect(res.code).toBe(1);
    expect(sim.ordersReceived.slice(count).map((o) => [o.side, o.quantity])).toEqual([['2', '0.1']]);
    expect(res.data).toMatchObject({ Status: 3, Quantity: '0.1' });
    expect(dec(res.data.UpdatePrice).eq(q.bid)).toBe(true);
    expect(await lastHedge()).toMatchObject({ reason: 'a_close', status: 'filled', clientOrderIds: [third, res.data.Id], mismatch: null });
    expect(await position(third)).toMatchObject({ Quantity: '0.2' });
    expect(await netUnits()).toBe('0.4');
  });

  it('a provider reject refuses the partial close and nothing changes', async () => {
    const before = await metric(/^tp_hedge_mismatch_total\{reason="rejected"\} (\d+)/m);
    const cash = (await api(t, trader, '/v1/api/forex/deal', { forex_id: btc().id })).data.balance;
    sim.orders = { ...sim.orders, reject: 'no liquidity' };
    try {
      const res = await api(t, trader, '/v1/api/forex/close', { id: third, cont: '0.1' });
      expect(res.code).not.toBe(1);
      expect(res.msg).toMatch(/liquidity provider did not fill/);
      expect(await position(third)).toMatchObject({ Quantity: '0.2' });
      expect((await open()).length).toBe(3);
      expect((await api(t, trader, '/v1/api/forex/deal', { forex_id: btc().id })).data.balance).toBe(cash);
      expect(await lastHedge()).toMatchObject({ reason: 'a_close', status: 'rejected', mismatch: 'rejected', clientOrderIds: [third] });
      expect(await metric(/^tp_hedge_mismatch_total\{reason="rejected"\} (\d+)/m)).toBe(before + 1);
      expect(await netUnits()).toBe('0.4');
    } finally {
      sim.orders = { ...sim.orders, reject: null };
    }
  });

  it('a reverse the provider does not answer in time is refused and nothing changes', async () => {
    sim.orders = { ...sim.orders, silent: true };
    try {
      const ids = (await open()).map((o) => o.Id).sort();
      const res = await api(t, trader, '/v1/api/forex/reverse', { id: third });
      expect(res.code).not.toBe(1);
      expect(res.msg).toMatch(/liquidity provider did not fill/);
      expect((await open()).map((o) => o.Id).sort()).toEqual(ids);
      expect(await position(third)).toMatchObject({ Quantity: '0.2', OrderType: 1 });
      expect(await lastHedge()).toMatchObject({ reason: 'a_close', status: 'timeout', mismatch: 'timeout', quantity: '0.400000' });
      expect(await netUnits()).toBe('0.4');
    } finally {
      sim.orders = { ...sim.orders, silent: false };
    }
  });

  let reversed = 0;
  it("a reverse sends one order of twice the lots the other way, and both sides settle at the provider's price", async () => {
    const q = await quoteNow();
    const count = sim.ordersReceived.length;
    const res = await api(t, trader, '/v1/api/forex/reverse', { id: third });
    expect(res.code).toBe(1);
    reversed = res.data.Id;
    // 0.2 lots bought: 0.4 sold to the provider (0.2 to close, 0.2 to open the sell).
    expect(sim.ordersReceived.slice(count).map((o) => [o.side, o.quantity])).toEqual([['2', '0.4']]);
    expect(res.data).toMatchObject({ OrderType: 2, Status: 1, Quantity: '0.2' });
    expect(dec(res.data.Price).eq(q.bid)).toBe(true);
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    const closed = history.data.data.find((o: { Id: number }) => o.Id === third);
    expect(dec(closed.UpdatePrice).eq(q.bid)).toBe(true);
    expect(await lastHedge()).toMatchObject({ reason: 'a_close', status: 'filled', clientOrderIds: [third, reversed] });
    expect(await netUnits()).toBe('0');
  });

  it('a batch close sends each chosen position to the provider and closes it at its price', async () => {
    const q = await quoteNow();
    const count = sim.ordersReceived.length;
    // All sells of BTC: the reversed position only.
    const res = await api(t, trader, '/v1/api/forex/batch_Close_by_type', { type: 2, forex_id: btc().id });
    expect(res.code).toBe(1);
    expect(res.data.failed).toEqual([]);
    expect(res.data.closed.map((o: { Id: number }) => o.Id)).toEqual([reversed]);
    expect(dec(res.data.closed[0].UpdatePrice).eq(q.ask)).toBe(true);
    expect(sim.ordersReceived.slice(count).map((o) => [o.side, o.quantity])).toEqual([['1', '0.2']]);
    expect(await lastHedge()).toMatchObject({ reason: 'a_close', status: 'filled', clientOrderIds: [reversed] });
    expect(await netUnits()).toBe('0.2');
    expect((await open()).length).toBe(2);
  });

  it('a batch close the provider rejects leaves the positions open and lists them as failed', async () => {
    sim.orders = { ...sim.orders, reject: 'no liquidity' };
    try {
      const ids = (await open()).map((o) => o.Id).sort();
      const res = await api(t, trader, '/v1/api/forex/batch_Close_by_type', { type: 0 });
      expect(res.code).toBe(1);
      expect(res.data.closed).toEqual([]);
      expect(res.data.failed.map((f: { id: number }) => f.id).sort()).toEqual(ids);
      expect(res.data.failed[0].msg).toMatch(/liquidity provider did not fill/);
      expect((await open()).length).toBe(2);
      expect(await netUnits()).toBe('0.2');
    } finally {
      sim.orders = { ...sim.orders, reject: null };
    }
  });

  it('with the provider gone a client close is refused, and staff can still close at the quote', async () => {
    const [pos] = await open();
    sim.stop();
    await until(() => !hedges().available(btc().id));
    const res = await api(t, trader, '/v1/api/forex/close', { id: pos!.Id });
    expect(res.code).not.toBe(1);
    expect(res.msg).toMatch(/liquidity provider did not fill/);
    expect((await open()).length).toBe(2);
    const closed = await t.ctx.services.trading.closeOrderByStaff(pos!.Id);
    expect(closed).toMatchObject({ id: pos!.Id, status: 3, closedType: 5 });
    expect((await open()).length).toBe(1);
  });

  it('the ledger audit is clean', async () => {
    await expectAuditClean(t);
  });

  async function lastHedge() {
    const rows = await t.ctx.db.select().from(hedgeOrders).orderBy(hedgeOrders.id);
    return rows.at(-1)!;
  }
});

describe.each(dbTargets)('hybrid hedging over FIX 4.4 (%s)', (target) => {
  let t: TestApp;
  let sim: FixSimulator;
  let trader: Trader;
  let risk: string;
  let groupId: number;
  const market = () => t.ctx.services.market as MarketServiceImpl;
  const btc = () => market().symbolByCode('BTCUSDT')!;
  const reconciler = () => t.ctx.services.trading.hedgeReconciler;
  const netUnits = async () => (await t.ctx.services.trading.hedges.netBySymbol()).get(btc().id)?.toString() ?? '0';
  const buy = (lots: string) => submit(t, trader, { type: 1, cont: lots, forex_id: btc().id, multiple: 10 });

  beforeAll(async () => {
    // The house keeps up to 0.3 lots of the group's net BTC.
    ({ t, sim, trader, risk, groupId } = await hedgeApp(target, 'hybrid', (id) => [{ symbol_id: id, hedge_threshold_lots: '0.3' }]));
    // As on the leader: a pass after every committed fill.
    reconciler().start();
  });
  afterAll(async () => {
    reconciler()?.stop();
    t?.ctx.services.priceSource.stop();
    sim?.stop();
    await t?.close();
  });

  it('below the threshold nothing is hedged', async () => {
    const before = sim.ordersReceived.length;
    expect((await buy('0.2')).code).toBe(1);
    await reconciler().pass();
    expect(sim.ordersReceived.length).toBe(before);
    expect(await netUnits()).toBe('0');
  });

  let second = 0;
  it('above it the excess is hedged after the fill, and a second pass sends nothing', async () => {
    const res = await buy('0.3');
    expect(res.code).toBe(1);
    second = res.data.Id;
    // 0.5 lots net, 0.3 kept: 0.2 bought from the provider, without being asked (the fill triggers a pass).
    await until(async () => (await netUnits()) === '0.2');
    expect(sim.ordersReceived.at(-1)).toMatchObject({ side: '1', quantity: '0.2', ordType: '1' });
    const count = sim.ordersReceived.length;
    await reconciler().pass();
    // A restarted server's reconciler reads the same book: nothing to send either.
    const { HedgeReconciler } = await import('./hedge-reconciler.ts');
    const fresh = new HedgeReconciler(t.ctx, t.ctx.services.trading.settings, t.ctx.services.trading.hedges, () => () => {});
    await fresh.pass();
    expect(sim.ordersReceived.length).toBe(count);
    const [row] = await t.ctx.db.select().from(hedgeOrders).orderBy(hedgeOrders.id);
    expect(row).toMatchObject({ reason: 'hybrid', status: 'filled', mismatch: null });
  });

  it('back below the threshold the hedge is unwound', async () => {
    expect((await api(t, trader, '/v1/api/forex/close', { id: second })).code).toBe(1);
    await until(async () => (await netUnits()) === '0');
    expect(sim.ordersReceived.at(-1)).toMatchObject({ side: '2', quantity: '0.2' });
  });

  it('a target the provider refuses is a mismatch, reached at a later pass', async () => {
    sim.orders = { ...sim.orders, reject: 'closed' };
    try {
      expect((await buy('0.4')).code).toBe(1);
      // 0.6 net: 0.3 to hedge.
      await until(async () => (await t.ctx.db.select().from(hedgeOrders)).some((r) => r.mismatch === 'target_not_reached'));
      expect(await netUnits()).toBe('0');
    } finally {
      sim.orders = { ...sim.orders, reject: null };
    }
    await reconciler().pass();
    expect(await netUnits()).toBe('0.3');
  });

  it('an order left working with no answer (its server stopped) is marked a timeout mismatch at the next pass; a fresh one is left alone', async () => {
    const row = (clOrdId: string, updatedAt: Date) => ({
      clOrdId,
      session: 'lp1',
      symbolId: btc().id,
      side: 'buy',
      quantity: '0.1',
      status: 'sent',
      reason: 'hybrid',
      updatedAt,
    });
    await t.ctx.db.insert(hedgeOrders).values([row('stranded-1', new Date(Date.now() - 120_000)), row('fresh-1', new Date())]);
    await reconciler().pass();
    const [stranded] = await t.ctx.db.select().from(hedgeOrders).where(eq(hedgeOrders.clOrdId, 'stranded-1'));
    const [fresh] = await t.ctx.db.select().from(hedgeOrders).where(eq(hedgeOrders.clOrdId, 'fresh-1'));
    expect(stranded).toMatchObject({ status: 'timeout', mismatch: 'timeout' });
    expect(fresh).toMatchObject({ status: 'sent', mismatch: null });
    // Out of the way of the later checks (they read the newest orders).
    await t.ctx.db.delete(hedgeOrders).where(inArray(hedgeOrders.clOrdId, ['stranded-1', 'fresh-1']));
  });

  it("staff with the risk role see the hedge book beside the clients' net exposure; a trader and other staff are refused", async () => {
    const res = await call(t, 'GET', '/api/admin/desk/hedges', {}, { token: risk });
    expect(res.code).toBe(1);
    expect(res.data.connected).toBe(1);
    expect(res.data.symbols).toEqual([
      { symbol_id: btc().id, code: 'BTC/USDT', clients_net_lots: '0.6', target_lots: '0.3', hedged_lots: '0.3', difference_lots: '0' },
    ]);
    expect(res.data.positions).toMatchObject([{ session: 'lp1', code: 'BTC/USDT', net_lots: '0.3' }]);
    expect(res.data.orders[0]).toMatchObject({
      reason: 'hybrid',
      side: 'buy',
      lots: '0.3',
      filled_lots: '0.3',
      status: 'filled',
      mismatch: null,
    });
    expect(res.data.orders.some((o: { mismatch: string | null }) => o.mismatch === 'target_not_reached')).toBe(true);
    expect(res.data.mismatches).toBeGreaterThanOrEqual(1);
    expect((await call(t, 'GET', '/api/admin/desk/hedges', {}, { token: trader.token })).code).not.toBe(1);
    const support = await staffSession(t, ['support']);
    expect((await call(t, 'GET', '/api/admin/desk/hedges', {}, { token: support })).code).not.toBe(1);
  });

  it("after random trading by several clients the hedge book equals the group's net beyond the threshold", async () => {
    const others = [await demoTrader(t), await demoTrader(t)];
    for (const o of others) {
      const moved = await call(t, 'POST', '/api/admin/users/set_group', { user_id: o.userId, group_id: groupId }, { token: risk });
      expect(moved.code).toBe(1);
    }
    const traders = [trader, ...others];
    let seed = 20261127;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const positions = async () => {
      const all: Array<{ Id: number; OrderType: number; Quantity: string; trader: Trader }> = [];
      for (const x of traders) {
        const res = await api(t, x, '/v1/api/forex/my_deal', { status: 1 });
        for (const p of res.data.data) all.push({ ...p, trader: x });
      }
      return all;
    };
    for (let step = 0; step < 12; step++) {
      const who = traders[rand(traders.length)]!;
      const open = await positions();
      if (open.length && rand(3) === 0) {
        const p = open[rand(open.length)]!;
        expect((await api(t, p.trader, '/v1/api/forex/close', { id: p.Id })).code).toBe(1);
      } else {
        const lots = ((rand(40) + 1) / 100).toFixed(2);
        const res = await submit(t, who, { type: rand(2) + 1, cont: lots, forex_id: btc().id, multiple: 10 });
        expect(res.code).toBe(1);
      }
      if (step % 3 !== 2) continue;
      await reconciler().pass();
      const net = (await positions()).reduce((sum, p) => (p.OrderType === 1 ? sum.plus(p.Quantity) : sum.minus(p.Quantity)), dec(0));
      const excess = net.abs().gt('0.3')
        ? net
            .abs()
            .minus('0.3')
            .mul(net.isNegative() ? -1 : 1)
        : dec(0);
      expect({ step, hedged: await netUnits() }).toEqual({ step, hedged: excess.toString() });
    }
    await expectAuditClean(t);
  });

  it('the ledger audit is clean', async () => {
    await expectAuditClean(t);
  });
});
