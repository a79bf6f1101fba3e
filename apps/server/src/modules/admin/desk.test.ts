import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus, OrderType } from '@tp/contract/constants';
import { closePriceFor } from '@tp/contract/formulas';
import { type Dec, dec, fixed, money, moneyStr, ZERO } from '@tp/contract/decimal';
import { staffSession } from '../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { api, demoTrader, submit, symbolId, tick, tradingApp, type Trader } from '../../../test/trading/test-kit.ts';
import { BusChannels } from '../../platform/bus-channels.ts';
import { orders } from '../../platform/db/schema.ts';
import { TestClient, type WsMessage } from '../../realtime/ws-test-client.ts';
import { newUser } from '../funding/test-helpers.ts';

/** BTC and EUR/USD are quoted in USD; USD/JPY converts through its own inverted mid, EUR/GBP through GBP/USD's. */
const CODES = ['BTCUSDT', 'EURUSD', 'USDJPY', 'EURGBP'];
const LOTS: Record<string, string[]> = {
  BTCUSDT: ['0.01', '0.05', '0.2'],
  EURUSD: ['0.1', '0.5', '1'],
  USDJPY: ['0.1', '0.3', '1'],
  EURGBP: ['0.1', '0.2', '0.7'],
};
const DESK = '/api/admin/desk/exposure';

/** A seeded pseudo-random sequence (mulberry32): a failure can be run again as it was. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
}

describe.each(dbTargets)("the dealer's desk on %s", (target) => {
  let t: TestApp;
  let url = '';
  const clients: TestClient[] = [];
  beforeAll(async () => {
    t = await tradingApp(target);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?lang=en`;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t?.close();
  });

  const market = () => t.ctx.services.market;

  /** Moves a symbol's mid by up to ±0.4%, keeping its spread. */
  async function movePrice(code: string, rnd: () => number) {
    const s = market().symbolByCode(code)!;
    const mid = dec(market().quote(s.id)!.mid);
    const bid = dec(fixed(mid.mul(1 + (rnd() - 0.5) * 0.008), s.pricePrecision));
    await tick(t, code, bid.toString(), bid.plus(s.spread).toFixed(s.pricePrecision));
  }

  /** The desk worked out from the open positions in the database and the current quotes, without the server's code. */
  async function expectedDesk(isDemo: boolean) {
    const rows = await t.ctx.db
      .select()
      .from(orders)
      .where(and(eq(orders.status, OrderStatus.OPEN), eq(orders.isDemo, isDemo)));
    const by = new Map<number, { n: number; longLots: Dec; shortLots: Dec; longUnits: Dec; shortUnits: Dec; clients: Dec }>();
    for (const r of rows) {
      const s = by.get(r.symbolId) ?? { n: 0, longLots: ZERO, shortLots: ZERO, longUnits: ZERO, shortUnits: ZERO, clients: ZERO };
      const units = dec(r.quantity).mul(r.contractSize);
      const long = r.orderType === OrderType.BUY;
      s.n++;
      if (long) [s.longLots, s.longUnits] = [s.longLots.plus(r.quantity), s.longUnits.plus(units)];
      else [s.shortLots, s.shortUnits] = [s.shortLots.plus(r.quantity), s.shortUnits.plus(units)];
      const q = market().quote(r.symbolId)!;
      const close = closePriceFor(r.orderType, q.bid, q.ask);
      // Exact per position; the symbol's sum is rounded to the money scale once (below).
      const diff = r.orderType === OrderType.BUY ? close.minus(r.price!) : dec(r.price!).minus(close);
      s.clients = s.clients.plus(diff.mul(r.quantity).mul(r.contractSize).mul(market().quoteToUsd(r.symbolId)));
      by.set(r.symbolId, s);
    }
    let [longTotal, shortTotal, houseTotal] = [ZERO, ZERO, ZERO];
    const symbols = [...by.entries()].map(([id, s]) => {
      const rate = market().quoteToUsd(id).mul(market().quote(id)!.mid);
      const long = money(s.longUnits.mul(rate));
      const short = money(s.shortUnits.mul(rate));
      const clients = money(s.clients);
      [longTotal, shortTotal, houseTotal] = [longTotal.plus(long), shortTotal.plus(short), houseTotal.minus(clients)];
      return {
        code: market().symbol(id)!.showCode,
        positions: s.n,
        long_lots: fixed(s.longLots, 6),
        short_lots: fixed(s.shortLots, 6),
        net_lots: fixed(s.longLots.minus(s.shortLots), 6),
        long_usd: moneyStr(long),
        short_usd: moneyStr(short),
        net_usd: moneyStr(long.minus(short)),
        house_floating: moneyStr(clients.neg()),
      };
    });
    const closed = await t.ctx.db
      .select({ profit: orders.profit })
      .from(orders)
      .where(and(eq(orders.status, OrderStatus.CLOSED), eq(orders.isDemo, isDemo)));
    return {
      is_demo: isDemo ? 1 : 0,
      symbols: symbols.sort((a, b) => a.code.localeCompare(b.code)),
      totals: {
        positions: rows.length,
        long_usd: moneyStr(longTotal),
        short_usd: moneyStr(shortTotal),
        net_usd: moneyStr(longTotal.minus(shortTotal)),
        house_floating: moneyStr(houseTotal),
      },
      // Every position closed in this test closed today: the house's realised result is the negative of their profits.
      house_realised_today: moneyStr(closed.reduce((sum, c) => sum.minus(c.profit), ZERO)),
    };
  }

  it('adds up, per symbol and in total, what the open positions and the current quotes say, real and demo apart', async () => {
    const risk = await staffSession(t, ['risk']);
    const demo = await Promise.all([demoTrader(t), demoTrader(t), demoTrader(t)]);
    const real: Trader[] = [];
    for (let i = 0; i < 3; i++) {
      const u = await newUser(t, { balance: '1000000' });
      real.push({ token: u.token, userId: u.id, demoId: '' });
    }
    const traders = [...demo, ...real];
    const open = new Map<Trader, number[]>(traders.map((tr) => [tr, []]));
    const rnd = seeded(20261127);
    for (let step = 0; step < 60; step++) {
      const trader = rnd.pick(traders);
      const code = rnd.pick(CODES);
      const roll = rnd.next();
      if (roll < 0.2) await movePrice(code, rnd.next);
      else if (roll < 0.35 && open.get(trader)!.length) {
        const ids = open.get(trader)!;
        const [id] = ids.splice(Math.floor(rnd.next() * ids.length), 1);
        expect((await api(t, trader, '/v1/api/forex/close', { id })).code).toBe(1);
      } else {
        const placed = await submit(t, trader, {
          type: rnd.pick([1, 2]),
          cont: rnd.pick(LOTS[code]!),
          forex_id: symbolId(t, code),
          multiple: 10,
        });
        expect([step, placed.code, placed.msg]).toEqual([step, 1, placed.msg]);
        open.get(trader)!.push(placed.data.Id);
      }
    }
    // Prices move away from every open price, then one real and one demo position close with a result.
    for (const code of CODES) await movePrice(code, rnd.next);
    for (const side of [real, demo]) {
      const holder = side.find((tr) => open.get(tr)!.length > 1)!;
      expect((await api(t, holder, '/v1/api/forex/close', { id: open.get(holder)!.shift() })).code).toBe(1);
    }
    for (const code of CODES) await movePrice(code, rnd.next);
    await t.ctx.services.trading.engine.idle();

    for (const isDemo of [false, true]) {
      const expected = await expectedDesk(isDemo);
      const res = await call(t, 'GET', DESK, isDemo ? { demo: 1 } : {}, { token: risk });
      expect(res.code).toBe(1);
      expect(res.data).toMatchObject({ ...expected, source: 'engine' });
      expect(res.data.symbols.length).toBeGreaterThan(1);
    }
    // A server that does not run the engine (a follower) answers the same figures from the database.
    const engine = t.ctx.services.trading.engine;
    await engine.stop();
    try {
      for (const isDemo of [false, true]) {
        const res = await call(t, 'GET', DESK, { demo: isDemo ? 1 : 0 }, { token: risk });
        expect(res.data).toMatchObject({ ...(await expectedDesk(isDemo)), source: 'database' });
      }
    } finally {
      await engine.start();
    }
    // Something was realised on both sides, and a non-USD quote was converted.
    const [realNow, demoNow] = await Promise.all([expectedDesk(false), expectedDesk(true)]);
    expect(realNow.house_realised_today).not.toBe('0.000000');
    expect(demoNow.house_realised_today).not.toBe('0.000000');
    expect([...realNow.symbols, ...demoNow.symbols].map((s) => s.code)).toEqual(expect.arrayContaining(['USD/JPY', 'EUR/GBP']));
  });

  it('lets the risk role and admin in, and refuses traders and other staff roles', async () => {
    const trader = await demoTrader(t);
    expect((await call(t, 'GET', DESK, {}, { token: trader.token })).code).toBe(999);
    expect((await call(t, 'GET', DESK)).code).toBe(999);
    for (const role of ['support', 'finance', 'content']) {
      const res = await call(t, 'GET', DESK, {}, { token: await staffSession(t, [role]), lang: 'en' });
      expect([role, res.code]).toEqual([role, 1003]);
    }
    expect((await call(t, 'GET', DESK, {}, { token: await staffSession(t, ['admin']) })).code).toBe(1);
    expect((await call(t, 'GET', DESK, { demo: 2 }, { token: await staffSession(t, ['risk']) })).code).not.toBe(1);
  });

  const connect = async () => {
    const c = await TestClient.connect(url);
    clients.push(c);
    return c;
  };
  const isDesk = (m: WsMessage | string): m is WsMessage => typeof m === 'object' && m.type === 'DESK';

  it('pushes the figures to subscribed risk staff about twice a second, and refuses the topic to others', async () => {
    const trader = await demoTrader(t);
    const stranger = await connect();
    expect(await stranger.request({ type: 'sub', params: 'DESK' }, 'sub_result')).toMatchObject({ code: 1003 });
    await stranger.request({ type: 'login', params: trader.token }, 'login_result');
    expect(await stranger.request({ type: 'sub', params: 'DESK' }, 'sub_result')).toMatchObject({ code: 1003 });
    const support = await connect();
    await support.request({ type: 'login', params: await staffSession(t, ['support']) }, 'login_result');
    expect(await support.request({ type: 'sub', params: 'DESK' }, 'sub_result')).toMatchObject({ code: 1003 });

    const desk = await connect();
    expect(await desk.request({ type: 'login', params: await staffSession(t, ['risk']) }, 'login_result')).toMatchObject({ code: 1 });
    expect(await desk.request({ type: 'sub', params: 'DESK' }, 'sub_result')).toMatchObject({ code: 1, topic: 'DESK' });
    const first = (await desk.next(isDesk)) as WsMessage;
    const [real, demo] = await Promise.all([expectedDesk(false), expectedDesk(true)]);
    expect(first).toMatchObject({ type: 'DESK', real: { ...real, source: 'engine' }, demo: { ...demo, source: 'engine' } });

    // A new position shows in a following push.
    const from = desk.messages.length;
    const placed = await submit(t, trader, { type: 1, cont: '0.01', forex_id: symbolId(t, 'BTCUSDT'), multiple: 10 });
    expect(placed.code).toBe(1);
    await t.ctx.services.trading.engine.idle();
    const after = (await desk.next((m) => isDesk(m) && m.demo.totals.positions === demo.totals.positions + 1, 3000, from)) as WsMessage;
    expect(after.demo).toMatchObject(await expectedDesk(true));

    // At most about four a second.
    const counted = desk.ofType('DESK').length;
    await new Promise((r) => setTimeout(r, 2000));
    const pushed = desk.ofType('DESK').length - counted;
    expect(pushed).toBeGreaterThanOrEqual(2);
    expect(pushed).toBeLessThanOrEqual(8);
    expect(stranger.ofType('DESK')).toEqual([]);
    expect(support.ofType('DESK')).toEqual([]);

    // Nobody listening any more: within a few seconds the figures are no longer computed nor published.
    expect(await desk.request({ type: 'unsub', params: 'DESK' }, 'unsub_result')).toMatchObject({ code: 1 });
    await new Promise((r) => setTimeout(r, 3500));
    const published: unknown[] = [];
    const stop = t.ctx.bus.subscribe(BusChannels.staffDesk, (m) => published.push(m));
    await new Promise((r) => setTimeout(r, 1200));
    stop();
    expect(published).toEqual([]);
  });
});
