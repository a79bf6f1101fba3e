import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus } from '@tp/contract/constants';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { orders, symbols, users } from '../../platform/db/schema.ts';
import { insertUser } from '../auth/user-repository.ts';
import { eq } from 'drizzle-orm';
import { settings } from '../../platform/db/platform-schema.ts';
import { staffSession } from '../../../test/auth-helpers.ts';

const DAY = 86_400_000;

describe.each(dbTargets)('trader ranking on %s', (target) => {
  let t: TestApp;
  const sym: Record<string, { id: number; showCode: string }> = {};
  beforeAll(async () => {
    t = await createTestApp(target);
    for (const s of await t.ctx.db.select().from(symbols)) sym[s.code] = { id: s.id, showCode: s.showCode };
  });
  afterAll(async () => t?.close());

  const trader = async (fields: { email?: string; mobile?: string; displayName?: string; optOut?: boolean; isDemo?: boolean }) => {
    const u = await insertUser(t.ctx.db, { email: fields.email ?? null, mobile: fields.mobile ?? null, isDemo: fields.isDemo });
    await t.ctx.db
      .update(users)
      .set({ displayName: fields.displayName ?? null, rankingOptOut: fields.optOut ?? false })
      .where(eq(users.id, u.id));
    return u.id;
  };
  const order = (
    userId: number,
    o: { code: string; multiple: number; margin: string; profit: string; daysAgo: number; status?: number; isDemo?: boolean },
  ) =>
    t.ctx.db.insert(orders).values({
      userId,
      symbolId: sym[o.code]!.id,
      isDemo: o.isDemo ?? false,
      orderType: 1,
      status: o.status ?? OrderStatus.CLOSED,
      quantity: '0.10',
      leverage: o.multiple,
      contractSize: '100000',
      price: '1',
      closePrice: '1',
      margin: o.margin,
      fee: '0.5',
      profit: o.profit,
      closedType: 1,
      openedAt: new Date(Date.now() - o.daysAgo * DAY - 3_600_000),
      completedAt: new Date(Date.now() - o.daysAgo * DAY),
    });

  const minTrades = (value: string | null) =>
    value === null
      ? t.ctx.db.delete(settings).where(eq(settings.key, 'ranking_min_trades'))
      : t.ctx.db.insert(settings).values({ key: 'ranking_min_trades', value }).onConflictDoUpdate({ target: settings.key, set: { value } });

  it('ranks real traders by three-week profit rate, with figures computed by hand', async () => {
    // Every trader here is ranked whatever their number of trades: the minimum has its own test below.
    await minTrades('0');
    const alice = await trader({ email: 'alice@gmail.com' });
    await order(alice, { code: 'EURUSD', multiple: 100, margin: '100', profit: '30', daysAgo: 1 });
    await order(alice, { code: 'EURUSD', multiple: 100, margin: '200', profit: '-10', daysAgo: 5 });
    await order(alice, { code: 'XAUUSD', multiple: 50, margin: '100', profit: '5', daysAgo: 20.9 });
    await order(alice, { code: 'XAUUSD', multiple: 50, margin: '1000', profit: '500', daysAgo: 21.1 });
    await order(alice, { code: 'XAUUSD', multiple: 50, margin: '100', profit: '0', daysAgo: 2, status: OrderStatus.OPEN });
    await order(alice, { code: 'XAUUSD', multiple: 50, margin: '100', profit: '0', daysAgo: 2, status: OrderStatus.CANCELLED });

    const bob = await trader({ email: 'bob@example.com', displayName: 'Bob the Trader' });
    await order(bob, { code: 'GBPUSD', multiple: 200, margin: '50', profit: '10', daysAgo: 3 });

    const carol = await trader({ mobile: '13812345678' });
    await order(carol, { code: 'USDJPY', multiple: 20, margin: '300', profit: '-45', daysAgo: 4 });
    await order(carol, { code: 'EURUSD', multiple: 50, margin: '300', profit: '15', daysAgo: 6 });

    const hank = await trader({ email: 'hank@ex.org' });
    await order(hank, { code: 'XAGUSD', multiple: 10, margin: '100', profit: '0.125', daysAgo: 7 });

    const optedOut = await trader({ email: 'shy@example.com', optOut: true });
    await order(optedOut, { code: 'EURUSD', multiple: 100, margin: '10', profit: '1000', daysAgo: 1 });
    const demo = await trader({ isDemo: true });
    await order(demo, { code: 'EURUSD', multiple: 100, margin: '10', profit: '1000', daysAgo: 1, isDemo: true });
    const old = await trader({ email: 'old@example.com' });
    await order(old, { code: 'EURUSD', multiple: 100, margin: '10', profit: '1000', daysAgo: 22 });

    t.ctx.services.social.clearRankingCache();
    const res = await call(t, 'GET', '/api/follow/list', { limit: 50 });
    expect(res.code).toBe(1);
    expect(res.data.total).toBe(4);
    expect(res.data.data).toEqual([
      {
        id: bob,
        user: 'Bob the Trader',
        multiple: 200,
        three_week_rate: '20.00',
        three_week_win: '100.00',
        three_week_profit: '10.000000',
        total_rate: '20.00',
        total_trade_num: 1,
        code: sym.GBPUSD!.showCode,
        followers: 0,
        copyable: false,
        // The largest fall of cumulative profit from a peak, over the total margin; each trade held an hour.
        max_drawdown: '0.00',
        avg_hold_seconds: 3600,
      },
      {
        id: alice,
        user: 'al***@gm***.com',
        multiple: 100,
        three_week_rate: '6.25',
        three_week_win: '66.67',
        three_week_profit: '25.000000',
        total_rate: '37.50',
        total_trade_num: 4,
        code: sym.EURUSD!.showCode,
        followers: 0,
        copyable: false,
        // The largest fall of cumulative profit from a peak, over the total margin; each trade held an hour.
        max_drawdown: '0.71',
        avg_hold_seconds: 3600,
      },
      {
        id: hank,
        user: 'ha***@ex***.org',
        multiple: 10,
        three_week_rate: '0.12',
        three_week_win: '100.00',
        three_week_profit: '0.125000',
        total_rate: '0.12',
        total_trade_num: 1,
        code: sym.XAGUSD!.showCode,
        followers: 0,
        copyable: false,
        // The largest fall of cumulative profit from a peak, over the total margin; each trade held an hour.
        max_drawdown: '0.00',
        avg_hold_seconds: 3600,
      },
      {
        id: carol,
        user: '138****5678',
        // A tie of leverages goes to the higher one, a tie of symbols to the lower symbol id.
        multiple: 50,
        three_week_rate: '-5.00',
        three_week_win: '50.00',
        three_week_profit: '-30.000000',
        total_rate: '-5.00',
        total_trade_num: 2,
        code: sym.EURUSD!.id < sym.USDJPY!.id ? sym.EURUSD!.showCode : sym.USDJPY!.showCode,
        followers: 0,
        copyable: false,
        // The largest fall of cumulative profit from a peak, over the total margin; each trade held an hour.
        max_drawdown: '7.50',
        avg_hold_seconds: 3600,
      },
    ]);

    const page2 = await call(t, 'GET', '/api/follow/list', { page: 2, limit: 3 });
    expect(page2.data.total).toBe(4);
    expect(page2.data.data.map((r: { user: string }) => r.user)).toEqual(['138****5678']);

    // Cached for a minute: a new close shows after the cache is refreshed.
    await order(hank, { code: 'XAGUSD', multiple: 10, margin: '100', profit: '99.875', daysAgo: 0 });
    expect((await call(t, 'GET', '/api/follow/list')).data.data[2].user).toBe('ha***@ex***.org');
    t.ctx.services.social.clearRankingCache();
    const fresh = await call(t, 'GET', '/api/follow/list');
    expect(fresh.data.data[0]).toMatchObject({
      user: 'ha***@ex***.org',
      three_week_rate: '50.00',
      three_week_profit: '100.000000',
      total_trade_num: 2,
    });
  });

  it('ranks only traders with the minimum of closed trades in the window (5 unless staff set it)', async () => {
    await t.ctx.db.delete(orders);
    await minTrades(null);
    // One losing trade: a better rate than the steady trader's (-0.10 % against -0.40 %), yet no track record.
    const once = await trader({ email: 'once@example.com', displayName: 'One Trade' });
    await order(once, { code: 'EURUSD', multiple: 100, margin: '100', profit: '-0.1', daysAgo: 1 });
    // Five trades in the window, losing 2 on a margin of 500.
    const steady = await trader({ email: 'steady@example.com', displayName: 'Steady' });
    for (const profit of ['3', '-4', '2', '-5', '2'])
      await order(steady, { code: 'EURUSD', multiple: 100, margin: '100', profit, daysAgo: 2 });
    // Four in the window and more before it: the window's trades are what count.
    const older = await trader({ email: 'older@example.com', displayName: 'Older' });
    for (const daysAgo of [1, 2, 3, 4, 25, 26]) await order(older, { code: 'EURUSD', multiple: 100, margin: '100', profit: '10', daysAgo });

    t.ctx.services.social.clearRankingCache();
    const byDefault = await call(t, 'GET', '/api/follow/list', { limit: 50 });
    expect(byDefault.code).toBe(1);
    expect(byDefault.data.total).toBe(1);
    expect(byDefault.data.data.map((r: { user: string }) => r.user)).toEqual(['Steady']);
    expect(byDefault.data.data[0]).toMatchObject({ three_week_rate: '-0.40', three_week_win: '60.00', total_trade_num: 5 });

    // Staff lower the minimum in the back office: the change shows at once (the cached list is dropped).
    const content = await staffSession(t, ['content']);
    expect((await call(t, 'POST', '/api/admin/settings/save', { ranking_min_trades: '4' }, { token: content })).code).toBe(1);
    expect((await call(t, 'GET', '/api/admin/settings', {}, { token: content })).data.ranking_min_trades).toBe('4');
    const four = await call(t, 'GET', '/api/follow/list', { limit: 50 });
    expect(four.data.data.map((r: { user: string }) => r.user)).toEqual(['Older', 'Steady']);

    // 0 ranks everyone with a closed trade in the window, by three-week profit rate: the one trade is ranked, not first.
    expect((await call(t, 'POST', '/api/admin/settings/save', { ranking_min_trades: 0 }, { token: content })).code).toBe(1);
    const all = await call(t, 'GET', '/api/follow/list', { limit: 50 });
    expect(all.data.data.map((r: { user: string; three_week_rate: string }) => [r.user, r.three_week_rate])).toEqual([
      ['Older', '10.00'],
      ['One Trade', '-0.10'],
      ['Steady', '-0.40'],
    ]);

    // Not a whole number from 0 to 1000: refused, and the minimum stays.
    for (const bad of ['-1', '2.5', 'five', '1001'])
      expect((await call(t, 'POST', '/api/admin/settings/save', { ranking_min_trades: bad }, { token: content })).code).not.toBe(1);
    expect((await call(t, 'GET', '/api/admin/settings', {}, { token: content })).data.ranking_min_trades).toBe('0');
    await minTrades('0');
  });

  it('answers an empty list when nobody has closed an order in the window', async () => {
    await t.ctx.db.delete(orders);
    t.ctx.services.social.clearRankingCache();
    const res = await call(t, 'GET', '/api/follow/list', { page: 1 });
    expect(res).toMatchObject({ code: 1, data: { data: [], total: 0 } });
  });
});
