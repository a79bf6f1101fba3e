import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus } from '@tp/contract/constants';
import { dec, fixed, money, moneyStr } from '@tp/contract/decimal';
import { staffSession } from '../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { api, expectAuditClean, submit, symbolId, tick, tradingApp, type Trader } from '../../../test/trading/test-kit.ts';
import { orders, staffAuditLog, users } from '../../platform/db/schema.ts';
import { TestClient, type WsMessage } from '../../realtime/ws-test-client.ts';
import { newUser } from '../funding/test-helpers.ts';

const CLIENTS = '/api/admin/desk/clients';
const DESK = '/api/admin/desk/exposure';
const LIMITS = '/api/admin/desk/limits';
const SAVE = '/api/admin/desk/limits/save';

describe.each(dbTargets)("the dealer's desk, its clients and limits, on %s", (target) => {
  let t: TestApp;
  let url = '';
  let risk = '';
  const sockets: TestClient[] = [];
  beforeAll(async () => {
    t = await tradingApp(target);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?lang=en`;
    risk = await staffSession(t, ['risk']);
    await px('BTCUSDT', '95000');
    await px('EURUSD', '1.08000');
    await px('USDJPY', '150.000');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.close();
  });

  const market = () => t.ctx.services.market;
  /** Moves a symbol to a bid, its ask the bid plus the symbol's spread. */
  const px = async (code: string, bid: string) => {
    const s = market().symbolByCode(code)!;
    await tick(t, code, bid, dec(bid).plus(s.spread).toFixed(s.pricePrecision));
  };
  const real = async (balance: string): Promise<Trader & { email: string }> => {
    const u = await newUser(t, { balance });
    const [row] = await t.ctx.db.select({ email: users.email }).from(users).where(eq(users.id, u.id));
    return { token: u.token, userId: u.id, demoId: '', email: row!.email! };
  };
  const open = async (trader: Trader, code: string, type: number, cont: string, multiple: number) => {
    const res = await submit(t, trader, { type, cont, forex_id: symbolId(t, code), multiple });
    expect(res.code, res.msg).toBe(1);
    return res.data.Id as number;
  };
  const close = async (trader: Trader, id: number) => expect((await api(t, trader, '/v1/api/forex/close', { id })).code).toBe(1);

  it('names the clients who move the book: largest positions, floating profits, 30 days, near margin call, flow quality', async () => {
    // Flow: one client takes ten quick wins (opens, the price moves their way, closes), another ten quick losses.
    const quick = await real('100000');
    const slow = await real('100000');
    for (let i = 0; i < 10; i++) {
      const win = await open(quick, 'USDJPY', 1, '0.1', 100);
      const loss = await open(slow, 'USDJPY', 1, '0.1', 100);
      await px('USDJPY', '150.200');
      await close(quick, win);
      await px('USDJPY', '150.000');
      await close(slow, loss);
    }
    // The book: a large BTC long in profit, a small short, and an account pushed into a margin call.
    const whale = await real('1000000');
    const shorter = await real('1000000');
    const thin = await real('2000');
    const whaleId = await open(whale, 'BTCUSDT', 1, '2', 10);
    await open(shorter, 'BTCUSDT', 2, '0.05', 10);
    await open(thin, 'EURUSD', 1, '1', 100);
    await px('BTCUSDT', '96000');
    await px('EURUSD', '1.07060');
    await t.ctx.services.trading.engine.idle();
    const thinFigures = await t.ctx.services.trading.accountFigures(thin.userId);
    expect(thinFigures.riskRate!.lt(100)).toBe(true);
    expect(thinFigures.riskRate!.gt(50)).toBe(true);
    // The margin-call event is written off the tick's path.
    await expect.poll(async () => (await call(t, 'GET', CLIENTS, {}, { token: risk })).data.near_margin[0]?.since ?? null).not.toBeNull();

    const res = await call(t, 'GET', CLIENTS, {}, { token: risk });
    expect(res.code, res.msg).toBe(1);
    const d = res.data;
    expect(d).toMatchObject({ is_demo: 0, source: 'engine', rules: { quick_seconds: 60, toxic_share: '0.3', toxic_min_trades: 10 } });

    // Largest positions: every open real position by its USD value at the mid, worked out from the rows.
    const rows = await t.ctx.db
      .select()
      .from(orders)
      .where(and(eq(orders.status, OrderStatus.OPEN), eq(orders.isDemo, false)));
    const valued = rows
      .map((r) => {
        const usd = money(dec(r.quantity).mul(r.contractSize).mul(market().quoteToUsd(r.symbolId)).mul(market().quote(r.symbolId)!.mid));
        return { order_id: r.id, user_id: r.userId, usd: moneyStr(usd), v: usd };
      })
      .sort((a, b) => b.v.cmp(a.v) || a.order_id - b.order_id)
      .slice(0, 10)
      .map(({ v: _, ...r }) => r);
    expect(d.largest_positions.map((r: any) => ({ order_id: r.order_id, user_id: r.user_id, usd: r.usd }))).toEqual(valued);
    expect(d.largest_positions[0]).toMatchObject({
      order_id: whaleId,
      user_id: whale.userId,
      email: whale.email,
      type: 1,
      lots: '2.000000',
    });

    // Floating profit: the whale first, with what its account figures say.
    const whaleFigures = await t.ctx.services.trading.accountFigures(whale.userId);
    expect(d.top_floating[0]).toEqual({
      user_id: whale.userId,
      email: whale.email,
      positions: 1,
      floating: moneyStr(whaleFigures.floatingProfit),
      equity: moneyStr(whaleFigures.equity),
    });

    // Near margin call: the thin account, in a margin call since its event.
    expect(d.near_margin).toEqual([
      {
        user_id: thin.userId,
        email: thin.email,
        margin_level: fixed(thinFigures.riskRate!, 2),
        margin_call: 1,
        stop_out_level: '50.00',
        since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);

    // 30 days: the quick winner's realised profit is the best, the loser's is negative.
    const profitOf = async (userId: number) => {
      const closed = await t.ctx.db
        .select({ profit: orders.profit })
        .from(orders)
        .where(and(eq(orders.userId, userId), eq(orders.status, OrderStatus.CLOSED)));
      return closed.reduce((sum, c) => sum.plus(c.profit), dec(0));
    };
    expect(d.top_30d[0]).toEqual({ user_id: quick.userId, email: quick.email, trades: 10, profit: moneyStr(await profitOf(quick.userId)) });
    const loser = d.top_30d.find((r: any) => r.user_id === slow.userId);
    expect(loser).toEqual({ user_id: slow.userId, email: slow.email, trades: 10, profit: moneyStr(await profitOf(slow.userId)) });
    expect(dec(loser.profit).isNegative()).toBe(true);

    // Flow quality: ten quick wins in ten trades is flagged; ten quick losses are not.
    expect(d.flow[0]).toMatchObject({ user_id: quick.userId, trades: 10, quick_wins: 10, quick_win_share: '1.0000', toxic: 1 });
    expect(d.flow[0].avg_hold_seconds).toBeLessThan(60);
    expect(d.flow.find((r: any) => r.user_id === slow.userId)).toMatchObject({
      trades: 10,
      quick_wins: 0,
      quick_win_share: '0.0000',
      toxic: 0,
    });

    // A server that does not run the engine answers the same lists from the database.
    const engine = t.ctx.services.trading.engine;
    await engine.stop();
    try {
      const fromDb = (await call(t, 'GET', CLIENTS, {}, { token: risk })).data;
      expect(fromDb.source).toBe('database');
      expect(fromDb.largest_positions).toEqual(d.largest_positions);
      expect(fromDb.top_floating).toEqual(d.top_floating);
      expect(fromDb.near_margin.map((r: any) => [r.user_id, r.margin_level])).toEqual([[thin.userId, fixed(thinFigures.riskRate!, 2)]]);
    } finally {
      await engine.start();
    }
    // Demo accounts are apart.
    const demo = (await call(t, 'GET', CLIENTS, { demo: 1 }, { token: risk })).data;
    expect(demo.largest_positions.map((r: any) => r.user_id)).not.toContain(whale.userId);
    await expectAuditClean(t);
  });

  it('flags a symbol whose net lots pass its limit, on the desk and in a metric, and keeps limits audited', async () => {
    const trader = await real('1000000');
    await open(trader, 'EURUSD', 2, '3', 100);
    const net = async () => {
      const desk = (await call(t, 'GET', DESK, {}, { token: risk })).data;
      return desk.symbols.find((s: any) => s.code === market().symbolByCode('EURUSD')!.showCode);
    };
    const before = await net();
    expect(before).toMatchObject({ limit_lots: null, over_limit: 0 });
    const netLots = dec(before.net_lots).abs();
    expect(netLots.gte(2)).toBe(true);
    const eurusd = symbolId(t, 'EURUSD');

    const saved = await call(t, 'POST', SAVE, { symbol_id: eurusd, max_net_lots: '1.5' }, { token: risk, json: true });
    expect(saved.code, saved.msg).toBe(1);
    expect(saved.data).toContainEqual({
      symbol_id: eurusd,
      code: market().symbol(eurusd)!.showCode,
      max_net_lots: '1.50',
      group_id: null,
      group_name: null,
    });
    expect(await net()).toMatchObject({ limit_lots: '1.50', over_limit: 1 });

    // The push to the desk counts the breach once, as it starts.
    const desk = await TestClient.connect(url);
    sockets.push(desk);
    await desk.request({ type: 'login', params: risk }, 'login_result');
    await desk.request({ type: 'sub', params: 'DESK' }, 'sub_result');
    const isDesk = (m: WsMessage | string): m is WsMessage => typeof m === 'object' && m.type === 'DESK';
    const pushed = (await desk.next(isDesk)) as WsMessage;
    expect(pushed.real.symbols.find((s: any) => s.symbol_id === eurusd)).toMatchObject({ limit_lots: '1.50', over_limit: 1 });
    await desk.next(isDesk, 3000, desk.messages.length);
    const breaches = async () => {
      const text = await t.ctx.metrics.text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('tp_desk_limit_breaches_total{') && l.includes(`"${market().symbol(eurusd)!.showCode}"`));
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    expect(await breaches()).toBe(1);

    // Above the net: no longer over; removed with an empty value.
    await call(t, 'POST', SAVE, { symbol_id: eurusd, max_net_lots: fixed(netLots.plus(1), 2) }, { token: risk, json: true });
    expect(await net()).toMatchObject({ over_limit: 0 });
    const removed = await call(t, 'POST', SAVE, { symbol_id: eurusd, max_net_lots: '' }, { token: risk, json: true });
    expect(removed.data.find((l: any) => l.symbol_id === eurusd)).toBeUndefined();
    expect(await net()).toMatchObject({ limit_lots: null, over_limit: 0 });
    expect((await call(t, 'GET', LIMITS, {}, { token: risk })).data).toEqual(removed.data);

    const audit = await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'desk.limit'));
    expect(audit.length).toBeGreaterThanOrEqual(3);

    // Bad input changes nothing; other roles are refused.
    for (const bad of ['abc', '-1', '1.234']) {
      const res = await call(t, 'POST', SAVE, { symbol_id: eurusd, max_net_lots: bad }, { token: risk, json: true, lang: 'en' });
      expect([bad, res.code]).not.toEqual([bad, 1]);
    }
    expect((await call(t, 'POST', SAVE, { symbol_id: 999999, max_net_lots: '1' }, { token: risk, json: true })).code).not.toBe(1);
    const support = await staffSession(t, ['support']);
    for (const path of [CLIENTS, LIMITS]) expect((await call(t, 'GET', path, {}, { token: support })).code).toBe(1003);
    expect((await call(t, 'POST', SAVE, { symbol_id: eurusd, max_net_lots: '1' }, { token: support, json: true })).code).toBe(1003);
    expect((await call(t, 'GET', LIMITS, {}, { token: risk })).data).toEqual([]);
  });

  it("splits the book per account group, flags a group's own limit on that group's clients only, and re-files a moved client's positions", async () => {
    const eurusd = symbolId(t, 'EURUSD');
    const code = market().symbol(eurusd)!.showCode;
    const made = await call(
      t,
      'POST',
      '/api/admin/groups/save',
      { name: 'Desk VIP', kind: 'real' },
      { token: risk, json: true, lang: 'en' },
    );
    expect(made.code, made.msg).toBe(1);
    if (made.data.pending_change_id) {
      const second = await staffSession(t, ['risk']);
      expect((await call(t, 'POST', '/api/admin/changes/approve', { id: made.data.pending_change_id }, { token: second })).code).toBe(1);
    }
    const groups = (await call(t, 'GET', '/api/admin/groups/list', {}, { token: risk })).data as any[];
    const vip = groups.find((g) => g.name === 'Desk VIP');
    const standard = groups.find((g) => g.name === 'Standard');
    const setGroup = async (userId: number, groupId: number) =>
      expect((await call(t, 'POST', '/api/admin/users/set_group', { user_id: userId, group_id: groupId }, { token: risk })).code).toBe(1);
    const member = await real('1000000');
    await setGroup(member.userId, vip.id);
    await open(member, 'EURUSD', 1, '1', 100);
    const other = await real('1000000');
    await open(other, 'EURUSD', 2, '2', 100);

    const desk = async () => (await call(t, 'GET', DESK, {}, { token: risk })).data;
    const row = (symbols: any[]) => symbols.find((s: any) => s.symbol_id === eurusd);
    let d = await desk();
    const vipBook = d.groups.find((g: any) => g.group_id === vip.id);
    expect(vipBook).toMatchObject({ name: 'Desk VIP', book: 'B', totals: { positions: 1 } });
    expect(row(vipBook.symbols)).toMatchObject({ positions: 1, long_lots: '1.000000', short_lots: '0.000000', net_lots: '1.000000' });
    // The groups add up to the book.
    const sum = (f: string) => d.groups.reduce((a: any, g: any) => a.plus(row(g.symbols)?.[f] ?? 0), dec(0)).toFixed(6);
    expect({ net: sum('net_lots'), positions: d.groups.reduce((n: number, g: any) => n + (row(g.symbols)?.positions ?? 0), 0) }).toEqual({
      net: dec(row(d.symbols).net_lots).toFixed(6),
      positions: row(d.symbols).positions,
    });

    // A limit of the VIP group only: its clients are over, the book as a whole and the Standard group are not.
    const saved = await call(t, 'POST', SAVE, { symbol_id: eurusd, group_id: vip.id, max_net_lots: '0.5' }, { token: risk, json: true });
    expect(saved.code, saved.msg).toBe(1);
    expect(saved.data).toContainEqual({ symbol_id: eurusd, code, max_net_lots: '0.50', group_id: vip.id, group_name: 'Desk VIP' });
    d = await desk();
    expect(row(d.groups.find((g: any) => g.group_id === vip.id).symbols)).toMatchObject({ limit_lots: '0.50', over_limit: 1 });
    expect(row(d.symbols)).toMatchObject({ limit_lots: null, over_limit: 0 });
    expect(row(d.groups.find((g: any) => g.group_id === standard.id).symbols)).toMatchObject({ limit_lots: null, over_limit: 0 });
    expect(
      (await call(t, 'POST', SAVE, { symbol_id: eurusd, group_id: 999999, max_net_lots: '1' }, { token: risk, json: true })).code,
    ).not.toBe(1);

    // Moved back to Standard: the position counts in Standard once the move has answered, and the VIP group has
    // nothing left. On PostgreSQL another transaction is writing meanwhile (it started first, so the move's row in
    // the change log cannot be read before it ends): the desk follows the move itself, not only the log.
    const standardBefore = row(d.groups.find((g: any) => g.group_id === standard.id).symbols).positions;
    let release = () => {};
    let writing: Promise<unknown> = Promise.resolve();
    // The log read up to now first: no older row of this client is left in it to bring the move along.
    await t.ctx.services.trading.engine.idle();
    if (target === 'postgres') {
      const held = new Promise<void>((resolve) => (release = resolve));
      await new Promise<void>((began) => {
        writing = t.ctx.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_current_xact_id()`);
          began();
          await held;
        });
      });
    }
    try {
      await setGroup(member.userId, standard.id);
      await t.ctx.services.trading.engine.idle();
      const now = await desk();
      expect({
        vip: now.groups.some((g: any) => g.group_id === vip.id),
        standard: row(now.groups.find((g: any) => g.group_id === standard.id).symbols).positions,
      }).toEqual({ vip: false, standard: standardBefore + 1 });
    } finally {
      release();
      await writing;
    }
    await call(t, 'POST', SAVE, { symbol_id: eurusd, group_id: vip.id, max_net_lots: '' }, { token: risk, json: true });
    await expectAuditClean(t);
  });
});
