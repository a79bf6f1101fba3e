import { and, eq, inArray } from 'drizzle-orm';
import * as endpoints from '@tp/contract/endpoints/trading';
import { dec } from '@tp/contract/decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { ledgerAccounts, ledgerEntries, orders } from '../../../platform/db/schema.ts';
import { api, cashOf, demoTrader, submit, symbolId, tick, type Trader, tradingApp } from '../../../../test/trading/test-kit.ts';

const PATH = endpoints.statement.path;
const at = (iso: string) => new Date(iso);
const sec = (iso: string) => Date.parse(iso) / 1000;

describe.each(dbTargets)('account statements on %s', (target) => {
  let t: TestApp;
  let alice: Trader;
  let bob: Trader;
  let closed: { Id: number; TradeFee: string; FactProfits: string };
  let bobClosedId: number;

  /** Places every ledger entry of one user's order (or, without an order, of a type) at a fixed time. */
  const moveEntries = async (userId: number, type: string, when: Date, memoLike?: string) => {
    const accounts = await t.ctx.db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.userId, userId));
    const rows = await t.ctx.db
      .select({ id: ledgerEntries.id, memo: ledgerEntries.memo })
      .from(ledgerEntries)
      .where(
        and(
          inArray(
            ledgerEntries.accountId,
            accounts.map((a) => a.id),
          ),
          eq(ledgerEntries.type, type),
        ),
      );
    const ids = rows.filter((r) => !memoLike || r.memo.includes(memoLike)).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    await t.ctx.db.update(ledgerEntries).set({ createdAt: when }).where(inArray(ledgerEntries.id, ids));
  };

  const statement = (who: Trader | null, params: Record<string, unknown>, lang = 'en') => api(t, who, PATH, params, lang);

  beforeAll(async () => {
    t = await tradingApp(target);
    alice = await demoTrader(t);
    bob = await demoTrader(t);
    await tick(t, 'EURUSD', '1.08500', '1.08512');
    const mine = await submit(t, alice, { type: 1, cont: '1', forex_id: symbolId(t, 'EURUSD'), multiple: 100 });
    const theirs = await submit(t, bob, { type: 2, cont: '2', forex_id: symbolId(t, 'EURUSD'), multiple: 100 });
    expect([mine.code, theirs.code]).toEqual([1, 1]);
    await tick(t, 'EURUSD', '1.08600', '1.08612');
    const done = await api(t, alice, endpoints.close.path, { id: mine.data.Id });
    const bobDone = await api(t, bob, endpoints.close.path, { id: theirs.data.Id });
    expect([done.code, bobDone.code]).toEqual([1, 1]);
    closed = done.data;
    bobClosedId = bobDone.data.Id;
    // A second position of Alice's stays open: its margin is not a balance change.
    expect((await submit(t, alice, { type: 2, cont: '1', forex_id: symbolId(t, 'EURUSD'), multiple: 100 })).code).toBe(1);

    // A history on fixed dates: funded in October, traded on 10 November at 00:00:00 UTC, closed at 12:00.
    for (const who of [alice, bob]) {
      await moveEntries(who.userId, 'demo_funding', at('2026-10-15T09:00:00Z'));
      await moveEntries(who.userId, 'margin_lock', at('2026-11-10T00:00:00Z'), `#${who === alice ? mine.data.Id : theirs.data.Id}`);
      await moveEntries(who.userId, 'trade_fee', at('2026-11-10T00:00:00Z'), `#${who === alice ? mine.data.Id : theirs.data.Id}`);
      await moveEntries(who.userId, 'margin_release', at('2026-11-10T12:00:00Z'));
      await moveEntries(who.userId, 'profit', at('2026-11-10T12:00:00Z'));
    }
    await t.ctx.db
      .update(orders)
      .set({ openedAt: at('2026-11-10T00:00:00Z'), completedAt: at('2026-11-10T12:00:00Z') })
      .where(inArray(orders.id, [closed.Id, bobClosedId]));
  });
  afterAll(async () => t?.close());

  it("lists the month's balance changes and closed positions with opening and closing balance and totals", async () => {
    const initial = dec(t.config.DEMO_INITIAL_BALANCE);
    const fee = dec(closed.TradeFee);
    const profit = dec(closed.FactProfits);
    expect(profit.toFixed(2)).toBe('88.00');

    // Up to 20 November: the position still open was opened today, on the clock of the run.
    const nov = await statement(alice, { start: '2026-11-01', end: '2026-11-20' });
    expect(nov.status).toBe(200);
    expect(nov.code).toBe(1);
    const s = nov.data;
    expect([s.start, s.end]).toEqual([sec('2026-11-01T00:00:00Z'), sec('2026-11-21T00:00:00Z')]);
    expect(s.opening_balance).toBe(initial.toFixed(6));
    expect(s.log.map((r: { Type: string }) => r.Type)).toEqual(['trade_fee', 'profit']);
    expect(s.log[0]).toMatchObject({
      Value: fee.neg().toFixed(6),
      Balance: initial.minus(fee).toFixed(6),
      MemoTran: expect.stringContaining('Trading fee'),
    });
    expect(s.log[1]).toMatchObject({
      Value: profit.toFixed(6),
      Balance: initial.minus(fee).plus(profit).toFixed(6),
      CreatedAt: sec('2026-11-10T12:00:00Z'),
    });
    expect(s.totals).toEqual({
      deposit: '0.000000',
      withdrawal: '0.000000',
      profit: profit.toFixed(6),
      fee: fee.neg().toFixed(6),
      swap: '0.000000',
      adjustment: '0.000000',
      net_change: profit.minus(fee).toFixed(6),
    });
    expect(s.closing_balance).toBe(initial.minus(fee).plus(profit).toFixed(6));
    expect(s.positions).toHaveLength(1);
    expect(s.positions[0]).toMatchObject({
      Id: closed.Id,
      ShowCode: expect.any(String),
      OrderType: 1,
      Quantity: '1',
      OpenPrice: '1.08512',
      ClosePrice: '1.08600',
      FactProfits: profit.toFixed(6),
      Points: '88',
      ClosedType: 1,
      OpenTime: sec('2026-11-10T00:00:00Z'),
      CloseTime: sec('2026-11-10T12:00:00Z'),
    });
    expect(s.position_totals).toEqual({ count: 1, lots: '1', profit: profit.toFixed(6), fee: fee.toFixed(6), swap: '0.000000' });
    expect(s.truncated).toBe(false);
  });

  it('starts from zero before the first entry and counts the initial funding as an adjustment', async () => {
    const oct = await statement(alice, { start: sec('2026-10-01T00:00:00Z'), end: sec('2026-11-01T00:00:00Z') });
    expect(oct.data).toMatchObject({ opening_balance: '0.000000', positions: [] });
    expect(oct.data.log.map((r: { Type: string }) => r.Type)).toEqual(['demo_funding']);
    expect(oct.data.totals.adjustment).toBe(dec(t.config.DEMO_INITIAL_BALANCE).toFixed(6));
    expect(oct.data.closing_balance).toBe(dec(t.config.DEMO_INITIAL_BALANCE).toFixed(6));
  });

  it('includes the start and excludes the end, to the second', async () => {
    const fromOpen = await statement(alice, { start: sec('2026-11-10T00:00:00Z'), end: sec('2026-11-10T12:00:00Z') });
    expect(fromOpen.data.log.map((r: { Type: string }) => r.Type)).toEqual(['trade_fee']);
    expect(fromOpen.data.positions).toEqual([]);
    const afterOpen = await statement(alice, { start: sec('2026-11-10T00:00:01Z'), end: sec('2026-11-10T12:00:01Z') });
    expect(afterOpen.data.log.map((r: { Type: string }) => r.Type)).toEqual(['profit']);
    expect(afterOpen.data.positions.map((p: { Id: number }) => p.Id)).toEqual([closed.Id]);
    expect(afterOpen.data.opening_balance).toBe(fromOpen.data.closing_balance);
    const empty = await statement(alice, { start: '2026-11-11', end: '2026-11-11' });
    expect(empty.data).toMatchObject({ log: [], positions: [], totals: { net_change: '0.000000' } });
    expect(empty.data.opening_balance).toBe(empty.data.closing_balance);
  });

  it("closes on the account's money today: cash plus margin in use, and margin moves are not listed", async () => {
    const now = Math.floor(Date.now() / 1000);
    const today = await statement(alice, { start: now - 86_400, end: now + 60 });
    const { balance, locked } = await cashOf(t, alice.userId);
    expect(dec(locked).isZero()).toBe(false);
    expect(today.data.closing_balance).toBe(dec(balance).plus(locked).toFixed(6));
    expect(today.data.log.map((r: { Type: string }) => r.Type)).toEqual(['trade_fee']);
  });

  it("never shows another user's entries or positions", async () => {
    const mine = (await statement(alice, { start: '2026-10-01', end: '2026-11-30' })).data;
    const theirs = (await statement(bob, { start: '2026-10-01', end: '2026-11-30' })).data;
    expect(mine.positions.map((p: { Id: number }) => p.Id)).toEqual([closed.Id]);
    expect(theirs.positions.map((p: { Id: number }) => p.Id)).toEqual([bobClosedId]);
    const ids = new Set(mine.log.map((r: { Id: number }) => r.Id));
    expect(theirs.log.some((r: { Id: number }) => ids.has(r.Id))).toBe(false);
    // Bob sold 2 lots that went against him: a loss, not Alice's profit.
    expect(dec(theirs.totals.profit).isNegative()).toBe(true);
    expect(theirs.position_totals.lots).toBe('2');
    // A user id in the query is not an input: the session decides whose statement it is.
    const spoofed = await statement(alice, { start: '2026-10-01', end: '2026-11-30', user_id: bob.userId, UserId: bob.userId });
    expect(spoofed.data.positions.map((p: { Id: number }) => p.Id)).toEqual([closed.Id]);
  });

  it('answers bad ranges with a translated error envelope, not a server error', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'trading.statement_range_invalid'],
      [{ start: '2026-11-01' }, 'trading.statement_range_invalid'],
      [{ start: 'yesterday', end: '2026-11-30' }, 'trading.statement_range_invalid'],
      [{ start: '2026-02-30', end: '2026-03-05' }, 'trading.statement_range_invalid'],
      [{ start: '-5', end: '100' }, 'trading.statement_range_invalid'],
      [{ start: '1e9', end: '2e9' }, 'trading.statement_range_invalid'],
      [{ start: '99999999999', end: '99999999999' }, 'trading.statement_range_invalid'],
      [{ start: '2026-11-30', end: '2026-11-01' }, 'trading.statement_range_invalid'],
      [{ start: sec('2026-11-01T00:00:00Z'), end: sec('2026-11-01T00:00:00Z') }, 'trading.statement_range_invalid'],
      [{ start: '2025-01-01', end: '2026-01-02' }, 'trading.statement_range_too_long'],
      [{ start: 0, end: 4_102_444_800 }, 'trading.statement_range_too_long'],
    ];
    const messages = { en: new Map<string, string>(), hk: new Map<string, string>() };
    for (const [params, key] of cases) {
      for (const lang of ['en', 'hk'] as const) {
        const res = await statement(alice, params, lang);
        expect(res.status, JSON.stringify(params)).toBe(200);
        expect(res.code, JSON.stringify(params)).not.toBe(1);
        expect(res.msg).not.toBe(key);
        const seen = messages[lang].get(key);
        if (seen) expect(res.msg).toBe(seen);
        else messages[lang].set(key, res.msg);
      }
    }
    expect(messages.en.get('trading.statement_range_too_long')).toContain('366');
    expect(messages.hk.get('trading.statement_range_too_long')).toContain('366');
    expect(messages.hk.get('trading.statement_range_invalid')).not.toBe(messages.en.get('trading.statement_range_invalid'));
    // A year of 366 days (2028 is a leap year) is allowed.
    expect((await statement(alice, { start: '2028-01-01', end: '2028-12-31' })).code).toBe(1);
    // Without a session: the spec's session-expired code.
    expect((await statement(null, { start: '2026-11-01', end: '2026-11-30' })).code).toBe(999);
  });
});
