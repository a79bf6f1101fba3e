import { inArray } from 'drizzle-orm';
import { dec } from '@tp/contract/decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSession } from '../../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { ledgerTransactions, orders } from '../../../platform/db/schema.ts';
import { SwapService } from './swap-service.ts';
import {
  api,
  cashOf,
  demoTrader,
  expectAuditClean,
  submit,
  symbolId,
  tick,
  type Trader,
  tradingApp,
} from '../../../../test/trading/test-kit.ts';

/** Rollovers at 17:00 New York (22:00 UTC in November), charged half an hour later. */
const TUE = Date.parse('2026-11-24T22:30:00Z');
const WED = Date.parse('2026-11-25T22:30:00Z');
const THU = Date.parse('2026-11-26T22:30:00Z');
const FRI = Date.parse('2026-11-27T22:30:00Z');
const SAT = Date.parse('2026-11-28T22:30:00Z');
const MON = Date.parse('2026-11-30T22:30:00Z');

/**
 * Seeded swaps: EURUSD -7.2 / +2.1 points (a point is 0.00001, 100,000 units a lot: -7.2 / +2.1 USD a
 * lot), USDJPY +14.2 / -28.6 points (0.001 JPY, converted at 1 / 150.007), both tripled on
 * Wednesday and none at weekends; BTCUSDT -18% a year of the value at the open price (95,010),
 * every day once: -47.505 USD a lot.
 */
const POSITIONS = [
  { name: 'EURUSD long', code: 'EURUSD', type: 1, multiple: 100, tue: '-7.2', wed: '-21.6', sat: '0' },
  { name: 'EURUSD short', code: 'EURUSD', type: 2, multiple: 100, tue: '2.1', wed: '6.3', sat: '0' },
  { name: 'USDJPY long (JPY-quoted)', code: 'USDJPY', type: 1, multiple: 100, tue: '9.466225', wed: '28.398675', sat: '0' },
  { name: 'BTCUSDT long (percent a year)', code: 'BTCUSDT', type: 1, multiple: 10, tue: '-47.505', wed: '-47.505', sat: '-47.505' },
] as const;

describe.each(dbTargets)('swaps at the daily rollover on %s', (target) => {
  let t: TestApp;
  let trader: Trader;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await tradingApp(target);
    trader = await demoTrader(t);
    await tick(t, 'EURUSD', '1.08500', '1.08512');
    await tick(t, 'USDJPY', '150.000', '150.014');
    await tick(t, 'BTCUSDT', '94990', '95010');
    for (const p of POSITIONS) {
      const opened = await submit(t, trader, { type: p.type, cont: '1', forex_id: symbolId(t, p.code), multiple: p.multiple });
      expect(opened.code).toBe(1);
      ids[p.name] = opened.data.Id;
    }
    // Opened on Tuesday before its rollover, so every rollover of the table applies (and none before it is owed).
    await t.ctx.db
      .update(orders)
      .set({ openedAt: new Date('2026-11-24T12:00:00Z') })
      .where(inArray(orders.id, Object.values(ids)));
  });
  afterAll(async () => t?.close());

  const swapsOf = async (): Promise<Record<string, string>> => {
    const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1, page: 1, limit: 50 });
    const byId = new Map(holding.data.data.map((o: { Id: number; Swap: string }) => [o.Id, dec(o.Swap).toString()]));
    return Object.fromEntries(POSITIONS.filter((p) => byId.has(ids[p.name]!)).map((p) => [p.name, byId.get(ids[p.name]!) as string]));
  };
  const swapTxCount = async () =>
    (
      await t.ctx.db
        .select()
        .from(ledgerTransactions)
        .where(inArray(ledgerTransactions.kind, ['swap']))
    ).length;

  it('charges long and short, points and percent, converted to USD, into the balance and not the floating profit', async () => {
    const before = await api(t, trader, '/v1/api/main/account/forexDetail');
    expect(await t.ctx.services.trading.swaps.charge(TUE)).toBe(POSITIONS.length);
    expect(await swapsOf()).toEqual(Object.fromEntries(POSITIONS.map((p) => [p.name, p.tue])));
    const total = POSITIONS.reduce((s, p) => s.plus(p.tue), dec(0));
    const after = await api(t, trader, '/v1/api/main/account/forexDetail');
    expect(dec(after.data.balance).minus(before.data.balance).toString()).toBe(total.toString());
    // Equity moves by the swap once: it is in the balance, and floating profit is the price move only.
    expect(after.data.float_profit).toBe(before.data.float_profit);
    expect(dec(after.data.equity).minus(before.data.equity).toString()).toBe(total.toString());
    await expectAuditClean(t);
  });

  it('charges each position once per rollover, whether run again, at once by several runners, or after a restart', async () => {
    const count = await swapTxCount();
    const cash = await cashOf(t, trader.userId);
    expect(await t.ctx.services.trading.swaps.charge(TUE)).toBe(0);
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => t.ctx.services.trading.swaps.charge(TUE + 60_000)));
    expect(concurrent).toEqual([0, 0, 0, 0, 0]);
    const restarted = new SwapService(t.ctx, () => undefined);
    expect(await restarted.charge(TUE + 3_600_000)).toBe(0);
    expect(await swapTxCount()).toBe(count);
    expect(await cashOf(t, trader.userId)).toEqual(cash);

    const racing = await Promise.all([restarted.charge(WED), t.ctx.services.trading.swaps.charge(WED), restarted.charge(WED)]);
    expect(racing.reduce((a, b) => a + b, 0)).toBe(POSITIONS.length);
    expect(await swapTxCount()).toBe(count + POSITIONS.length);
    await expectAuditClean(t);
  });

  it('skips positions opened after the rollover and closed ones, and logs each charge with a translated memo', async () => {
    const late = await submit(t, trader, { type: 1, cont: '1', forex_id: symbolId(t, 'EURUSD'), multiple: 100 });
    await t.ctx.db
      .update(orders)
      .set({ openedAt: new Date('2026-11-26T22:15:00Z') })
      .where(inArray(orders.id, [late.data.Id]));
    // Closed on Thursday before its rollover, whatever the clock of the run says.
    t.ctx.services.trading.swaps.clock = () => THU - 3_600_000;
    expect((await api(t, trader, '/v1/api/forex/close', { id: ids['EURUSD short'] })).code).toBe(1);
    // Thursday: EURUSD long, USDJPY long, BTCUSDT long; not the late one (opened after 17:00) nor the closed short.
    expect(await t.ctx.services.trading.swaps.charge(THU)).toBe(3);
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    expect(history.data.data.find((o: { Id: number }) => o.Id === ids['EURUSD short'])).toMatchObject({ Swap: '8.400000' });

    const en = await api(t, trader, '/v1/api/main/accountLog/forexChange', { page: 1, limit: 50 });
    const swaps = en.data.data.filter((e: { Type: string }) => e.Type === 'swap');
    const eur = ids['EURUSD long'];
    expect(swaps.map((e: { MemoTran: string }) => e.MemoTran)).toEqual(
      expect.arrayContaining([`Swap EURUSD #${eur} 2026-11-24`, `Swap EURUSD #${eur} 2026-11-25 x3`, `Swap EURUSD #${eur} 2026-11-26`]),
    );
    expect(swaps.find((e: { Memo: string }) => e.Memo === `EURUSD #${eur} 2026-11-25 x3`)).toMatchObject({ Value: '-21.600000' });
    const hk = await api(t, trader, '/v1/api/main/accountLog/forexChange', { page: 1, limit: 50 }, 'hk');
    expect(hk.data.data.map((e: { MemoTran: string }) => e.MemoTran)).toContain(`隔夜利息 EURUSD #${eur} 2026-11-24`);
    await expectAuditClean(t);
  });

  it('triples on Wednesday for FX, charges crypto every day once, and nothing at the weekend for FX', async () => {
    // Charged so far: Tuesday, Wednesday (x3) and Thursday; the EURUSD short was closed before Thursday.
    const open = POSITIONS.filter((p) => p.name !== 'EURUSD short');
    const thursday = {
      'EURUSD long': '-7.2',
      'USDJPY long (JPY-quoted)': '9.466225',
      'BTCUSDT long (percent a year)': '-47.505',
    } as Record<string, string>;
    const thu = (p: (typeof POSITIONS)[number]) => dec(p.tue).plus(p.wed).plus(thursday[p.name]!);
    expect(await swapsOf()).toEqual(Object.fromEntries(open.map((p) => [p.name, thu(p).toString()])));
    // Friday counts one day like Tuesday: the three, and the late EURUSD long opened after Thursday's rollover.
    expect(await t.ctx.services.trading.swaps.charge(FRI)).toBe(4);
    const fri = (p: (typeof POSITIONS)[number]) => thu(p).plus(p.tue);
    expect(await swapsOf()).toEqual(Object.fromEntries(open.map((p) => [p.name, fri(p).toString()])));
    expect(await t.ctx.services.trading.swaps.charge(SAT)).toBe(1);
    expect(await swapsOf()).toEqual(Object.fromEntries(open.map((p) => [p.name, fri(p).plus(p.sat).toString()])));
    await expectAuditClean(t);
  });

  it('takes the swap terms risk staff set in the back office at the next rollover (EURGBP converted through GBPUSD)', async () => {
    const risk = await staffSession(t, ['risk']);
    const eurgbp = symbolId(t, 'EURGBP');
    const terms = { id: eurgbp, swap_type: 2, swap_long: '-3.65', swap_short: '0.5', swap_triple_day: 5 };
    const saved = await call(t, 'POST', '/api/admin/symbols/save', terms, { token: risk });
    expect(saved.data).toMatchObject({ swap_type: 2, swap_long: '-3.65', swap_short: '0.5', swap_triple_day: 5 });
    expect((await call(t, 'POST', '/api/admin/symbols/save', { id: eurgbp, swap_long: '1e3' }, { token: risk })).code).toBe(1001);
    await tick(t, 'GBPUSD', '1.27000', '1.27016');
    await tick(t, 'EURGBP', '0.85430', '0.85445');
    const opened = await submit(t, trader, { type: 1, cont: '1', forex_id: eurgbp, multiple: 100 });
    await t.ctx.db
      .update(orders)
      .set({ openedAt: new Date('2026-11-30T12:00:00Z') })
      .where(inArray(orders.id, [opened.data.Id]));
    await t.ctx.services.trading.swaps.charge(MON);
    // -3.65% a year / 360 x 100,000 x 0.85445 (open at the ask) GBP, x 1.27008 (GBPUSD mid).
    const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1, page: 1, limit: 50 });
    expect(holding.data.data.find((o: { Id: number }) => o.Id === opened.data.Id)).toMatchObject({ Swap: '-11.002924' });
    await expectAuditClean(t);
  });
});
