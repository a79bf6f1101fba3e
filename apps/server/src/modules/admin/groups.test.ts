import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { orders } from '../../platform/db/schema.ts';
import { staffSession } from '../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { api, demoTrader, submit, symbolId, tick, tradingApp, type Trader } from '../../../test/trading/test-kit.ts';
import { newUser } from '../funding/test-helpers.ts';

const EURUSD = 'EURUSD';

/**
 * Account groups through the back office: the seeded groups, new users' groups, a save under
 * four-eyes (ineffective until a second member approves; the proposer cannot), moving users, and
 * trade_list answering with the caller's group's terms.
 */
describe.each(dbTargets)('account groups on %s', (target) => {
  let t: TestApp;
  let risk1: string;
  let risk2: string;
  let support: string;
  let eur: number;
  let trader: Trader;
  beforeAll(async () => {
    t = await tradingApp(target, { FOUR_EYES: 'on' });
    risk1 = await staffSession(t, ['risk']);
    risk2 = await staffSession(t, ['risk']);
    support = await staffSession(t, ['support']);
    eur = symbolId(t, EURUSD);
    await tick(t, EURUSD, '1.08500', '1.08512');
    trader = await demoTrader(t);
  });
  afterAll(async () => t?.close());

  const groups = async () => {
    const res = await call(t, 'GET', '/api/admin/groups/list', {}, { token: risk1 });
    expect(res.code).toBe(1);
    return res.data as any[];
  };
  const save = (token: string, params: Record<string, unknown>) =>
    call(t, 'POST', '/api/admin/groups/save', params, { token, json: true, lang: 'en' });
  const approve = (token: string, id: number) => call(t, 'POST', '/api/admin/changes/approve', { id }, { token, lang: 'en' });
  const setGroup = (userId: number, groupId: number) =>
    call(t, 'POST', '/api/admin/users/set_group', { user_id: userId, group_id: groupId }, { token: risk1, lang: 'en' });
  const eurRow = async (token?: string) => {
    const res = await call(t, 'GET', '/v1/api/forex/trade_list', { searchCurrency: EURUSD }, token ? { token } : {});
    expect(res.code).toBe(1);
    const row = (res.data as any[]).find((r) => r.Id === eur);
    return row
      ? { leverages: row.HasForexMultiple.map((l: { Value: number }) => l.Value), max: row.ForexMaxCont, fee: row.ForexFeeRate }
      : null;
  };

  it('seeds a demo, a standard (default real) and a professional group; new users join their kind default', async () => {
    const list = await groups();
    expect(list.slice(0, 3).map((g) => ({ name: g.name, kind: g.kind, profile: g.profile, is_default: g.is_default }))).toEqual([
      { name: 'Demo', kind: 'demo', profile: 'none', is_default: true },
      { name: 'Standard', kind: 'real', profile: 'none', is_default: true },
      { name: 'Professional', kind: 'real', profile: 'professional', is_default: false },
    ]);
    const [demo, standard] = list;
    const real = await newUser(t);
    const profile = async (id: number) => (await call(t, 'GET', '/api/admin/users/profile', { user_id: id }, { token: risk1 })).data;
    expect((await profile(real.id)).group_id).toBe(standard.id);
    expect((await profile(trader.userId)).group_id).toBe(demo.id);
    // Support staff may not see or change groups.
    expect((await call(t, 'GET', '/api/admin/groups/list', {}, { token: support })).code).not.toBe(1);
  });

  it('a group save is only proposed under four-eyes: nothing changes until a second risk member approves, never its proposer', async () => {
    const created = await save(risk1, { name: 'Scalpers', kind: 'demo', stop_out_level: '40', margin_call_level: '90' });
    expect(created.code).toBe(1);
    expect(Object.keys(created.data)).toEqual(['pending_change_id']);
    expect((await groups()).some((g) => g.name === 'Scalpers')).toBe(false);
    expect((await approve(risk1, created.data.pending_change_id)).msg).toBe(
      'You cannot approve a change you proposed: another risk or admin member must approve it',
    );
    expect((await approve(risk2, created.data.pending_change_id)).code).toBe(1);
    const group = (await groups()).find((g) => g.name === 'Scalpers');
    expect(group).toMatchObject({ kind: 'demo', stop_out_level: '40', margin_call_level: '90', members: 0, version: 1 });

    // An update with per-symbol terms: the member's trade_list follows only once approved.
    expect((await setGroup(trader.userId, group.id)).code).toBe(1);
    const before = await eurRow(trader.token);
    expect(before).toEqual({ leverages: [10, 20, 50, 100, 200, 500], max: expect.any(String), fee: '5' });
    const proposed = await save(risk1, {
      id: group.id,
      symbols: [{ symbol_id: eur, leverages: [50, 100], max_lots: '2', commission_type: 'per_lot', commission_rate: '7' }],
    });
    expect(Object.keys(proposed.data)).toEqual(['pending_change_id']);
    expect(await eurRow(trader.token)).toEqual(before);
    expect((await submit(t, trader, { type: 1, cont: '0.01', forex_id: eur, multiple: 10 })).code).toBe(1);
    const change = (await call(t, 'GET', '/api/admin/changes/list', { limit: 100 }, { token: risk2 })).data.data.find(
      (c: any) => c.id === proposed.data.pending_change_id,
    );
    expect(change).toMatchObject({ kind: 'group', target: String(group.id), target_label: 'Scalpers', status: 'pending' });
    // The preview: a 1-lot EURUSD round trip at the lowest leverage offered, now (the house's fee, 5 at the open) and as proposed (7 a side).
    const mid = t.ctx.services.market.quote(eur)!.mid;
    expect(change.preview.symbols).toEqual([
      {
        id: eur,
        code: EURUSD,
        mid,
        leverage_before: 10,
        leverage_after: 50,
        fee_before: '5',
        fee_after: '14',
        margin_before: dec(100_000).mul(mid).div(10).toString(),
        margin_after: dec(100_000).mul(mid).div(50).toString(),
        spread_cost_before: '0',
        spread_cost_after: '0',
      },
    ]);
    expect((await approve(risk2, proposed.data.pending_change_id)).code).toBe(1);
    expect(await eurRow(trader.token)).toEqual({ leverages: [50, 100], max: '2', fee: '7' });
    expect((await submit(t, trader, { type: 1, cont: '0.01', forex_id: eur, multiple: 10 })).msg).toBe(
      'Please choose one of the available leverage multiples: 50, 100',
    );
    expect((await groups()).find((g) => g.id === group.id)).toMatchObject({ version: 2, members: 1 });
  });

  it("trade_list answers a guest with the default real group's terms, a member with their group's; a disabled symbol is not listed", async () => {
    const standard = (await groups()).find((g) => g.name === 'Standard');
    const guestBefore = await eurRow();
    const proposed = await save(risk1, { id: standard.id, symbols: [{ symbol_id: eur, leverages: [20, 30], max_lots: '3' }] });
    expect((await approve(risk2, proposed.data.pending_change_id)).code).toBe(1);
    expect(await eurRow()).toEqual({ leverages: [20, 30], max: '3', fee: guestBefore!.fee });
    const off = await save(risk1, { name: 'No EURUSD', kind: 'demo', symbols: [{ symbol_id: eur, enabled: false }] });
    expect((await approve(risk2, off.data.pending_change_id)).code).toBe(1);
    const group = (await groups()).find((g) => g.name === 'No EURUSD');
    const other = await demoTrader(t);
    expect((await setGroup(other.userId, group.id)).code).toBe(1);
    expect(await eurRow(other.token)).toBeNull();
    expect((await submit(t, other, { type: 1, cont: '0.01', forex_id: eur, multiple: 10 })).msg).toBe(
      'This product cannot be traded at the moment',
    );
    // Back to the symbol's own terms for the other tests.
    const undo = await save(risk1, { id: standard.id, symbols: [] });
    expect((await approve(risk2, undo.data.pending_change_id)).code).toBe(1);
    expect(await eurRow()).toEqual(guestBefore);
  });

  it("trade_list shows a member the group's spread markup: the spread, the markups and the quotation's bid and ask", async () => {
    const rowOf = async (token?: string) =>
      ((await call(t, 'GET', '/v1/api/forex/trade_list', { searchCurrency: EURUSD }, token ? { token } : {})).data as any[]).find(
        (r) => r.Id === eur,
      );
    await tick(t, EURUSD, '1.08500', '1.08512');
    const marked = await save(risk1, { name: 'Marked up', kind: 'demo', symbols: [{ symbol_id: eur, spread_markup_points: 3 }] });
    expect((await approve(risk2, marked.data.pending_change_id)).code).toBe(1);
    const member = await demoTrader(t);
    expect((await setGroup(member.userId, (await groups()).find((g) => g.name === 'Marked up').id)).code).toBe(1);
    const guest = await rowOf();
    const row = await rowOf(member.token);
    expect({ MarkupBid: guest.MarkupBid, MarkupAsk: guest.MarkupAsk }).toEqual({ MarkupBid: '0', MarkupAsk: '0' });
    expect({ bid: guest.ForexQuotations.Bid, ask: guest.ForexQuotations.Ask }).toEqual({ bid: '1.08500', ask: '1.08512' });
    // 3 points at 5 decimals: 1 below the bid, 2 above the ask.
    expect({ MarkupBid: row.MarkupBid, MarkupAsk: row.MarkupAsk, Bid: row.ForexQuotations.Bid, Ask: row.ForexQuotations.Ask }).toEqual({
      MarkupBid: '0.00001',
      MarkupAsk: '0.00002',
      Bid: '1.08499',
      Ask: '1.08514',
    });
    expect(dec(row.Spread).minus(guest.Spread).toString()).toBe('0.00003');
    // The member's market buy fills at the ask they were shown.
    const bought = await submit(t, member, { type: 1, cont: '0.01', forex_id: eur, multiple: 100 });
    expect(bought.code).toBe(1);
    expect(bought.data.Price).toBe('1.08514');
  });

  it('moves users only into a group of their kind, audited', async () => {
    const professional = (await groups()).find((g) => g.name === 'Professional');
    expect((await setGroup(trader.userId, professional.id)).msg).toBe(
      'A demo user can only join a demo group, and a real user a real group',
    );
    const real = await newUser(t);
    const moved = await setGroup(real.id, professional.id);
    expect(moved.code).toBe(1);
    expect(moved.data.group_id).toBe(professional.id);
    const audit = await call(t, 'GET', '/api/admin/audit/list', { action: 'user.set_group' }, { token: await staffSession(t, ['admin']) });
    expect(audit.data.data[0]).toMatchObject({ action: 'user.set_group', target_id: String(real.id) });
  });

  it("charges each group's swaps at the rollover: the symbol's, the group's own long rate, none when swap-free", async () => {
    const make = async (name: string, row: Record<string, unknown>) => {
      const p = await save(risk1, { name, kind: 'demo', symbols: [{ symbol_id: eur, ...row }] });
      expect((await approve(risk2, p.data.pending_change_id)).code).toBe(1);
      return (await groups()).find((g) => g.name === name).id as number;
    };
    const free = await make('Swap free', { swap_free: true });
    const own = await make('Own swaps', { swap_long: '-1' });
    const traders = { symbol: await demoTrader(t), free: await demoTrader(t), own: await demoTrader(t) };
    expect((await setGroup(traders.free.userId, free)).code).toBe(1);
    expect((await setGroup(traders.own.userId, own)).code).toBe(1);
    const ids: Record<string, number> = {};
    for (const [name, trader] of Object.entries(traders)) {
      const res = await submit(t, trader, { type: 1, cont: '1', forex_id: eur, multiple: 100 });
      expect(res.code).toBe(1);
      ids[name] = res.data.Id;
      // Opened before Tuesday's rollover (22:00 UTC): it owes that one day.
      const [row] = await t.ctx.db
        .update(orders)
        .set({ openedAt: new Date('2026-11-24T12:00:00Z') })
        .where(eq(orders.id, res.data.Id))
        .returning();
      t.ctx.services.trading.engine.apply([{ type: 'sync', orderId: res.data.Id, order: row as never }]);
    }
    await t.ctx.services.trading.swaps.charge(Date.parse('2026-11-24T22:30:00Z'));
    await t.ctx.services.trading.engine.idle();
    const swapOf = async (name: keyof typeof traders) =>
      ((await api(t, traders[name], '/v1/api/forex/my_deal', { status: 1 })).data.data as any[]).find((o) => o.Id === ids[name]).Swap;
    // EURUSD long: -7.2 USD a lot (seeded); the group's -1; none.
    expect({ symbol: await swapOf('symbol'), own: await swapOf('own'), free: await swapOf('free') }).toEqual({
      symbol: '-7.200000',
      own: '-1.000000',
      free: '0.000000',
    });
  });
});
