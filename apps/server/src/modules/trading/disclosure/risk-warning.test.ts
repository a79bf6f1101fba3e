import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec, fixed } from '@tp/contract/decimal';
import { staffSession } from '../../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { api, demoTrader, expectAuditClean, submit, symbolId, tick, tradingApp, type Trader } from '../../../../test/trading/test-kit.ts';
import { orders, staffAuditLog } from '../../../platform/db/schema.ts';
import { newUser } from '../../funding/test-helpers.ts';

const WARNING = '/api/risk_warning';
const COMPUTE = '/api/admin/risk_warning/compute';

/**
 * The ESMA retail risk warning: of the retail accounts (real, not in a professional group) that closed a
 * position in the last 12 months, the share whose trading result over them (profit, fees and swaps, from
 * the ledger) is a loss; shown to the members of an ESMA retail group, kept with the date it was computed.
 */
describe.each(dbTargets)('the risk warning on %s', (target) => {
  let t: TestApp;
  let risk = '';
  let esmaGroup = 0;
  beforeAll(async () => {
    t = await tradingApp(target);
    risk = await staffSession(t, ['risk']);
    const saved = await call(
      t,
      'POST',
      '/api/admin/groups/save',
      { name: 'EU retail', kind: 'real', profile: 'esma_retail' },
      { token: risk, json: true },
    );
    expect(saved.code, saved.msg).toBe(1);
    const list = await call(t, 'GET', '/api/admin/groups/list', {}, { token: risk });
    esmaGroup = (list.data as { id: number; name: string }[]).find((g) => g.name === 'EU retail')!.id;
    await px('95000');
  });
  afterAll(async () => t?.close());

  const px = async (bid: string) => tick(t, 'BTCUSDT', bid, fixed(dec(bid).plus(20), 2));
  const real = async (groupId?: number): Promise<Trader> => {
    const u = await newUser(t, { balance: '100000' });
    if (groupId) {
      const moved = await call(t, 'POST', '/api/admin/users/set_group', { user_id: u.id, group_id: groupId }, { token: risk });
      expect(moved.code, moved.msg).toBe(1);
    }
    return { token: u.token, userId: u.id, demoId: '' };
  };
  /** One round trip on BTC: a loss (the spread and the fee) unless the price rises by `rise` before the close. */
  const roundTrip = async (trader: Trader, rise = 0) => {
    // A leverage the trader's group offers (ESMA retail caps crypto at 2:1).
    const list = await api(t, trader, '/v1/api/forex/trade_list', { searchCurrency: 'BTCUSDT' });
    const multiple = (list.data as { Code: string; HasForexMultiple: { Value: number }[] }[]).find((r) => r.Code === 'BTCUSDT')!
      .HasForexMultiple[0]!.Value;
    const opened = await submit(t, trader, { type: 1, cont: '0.1', forex_id: symbolId(t, 'BTCUSDT'), multiple });
    expect(opened.code, opened.msg).toBe(1);
    if (rise) await px(String(95000 + rise));
    expect((await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id })).code).toBe(1);
    if (rise) await px('95000');
  };

  it("counts the retail accounts that lost money over 12 months of closed trades, and shows it to an ESMA group's members", async () => {
    const [lost1, won, lost2] = [await real(esmaGroup), await real(esmaGroup), await real()];
    const professional = await real(3);
    const longAgo = await real(esmaGroup);
    const demo = await demoTrader(t);
    await roundTrip(lost1);
    await roundTrip(won, 1000);
    await roundTrip(lost2);
    await roundTrip(professional);
    await roundTrip(demo);
    await roundTrip(longAgo);
    // A client whose only trades closed 13 months ago is outside the period.
    const old = sql`now() - interval '400 days'`;
    await t.ctx.db.update(orders).set({ completedAt: old }).where(eq(orders.userId, longAgo.userId));
    await t.ctx.db.execute(
      sql`update ledger_entries set created_at = ${old} where account_id in (select id from ledger_accounts where user_id = ${longAgo.userId})`,
    );
    // Nothing computed yet: nothing to show.
    expect((await api(t, lost1, WARNING)).data).toMatchObject({ show: 0, percent: null, computed_at: null });

    const before = Date.now();
    const computed = await call(t, 'POST', COMPUTE, {}, { token: risk });
    expect(computed.code, computed.msg).toBe(1);
    // Three retail accounts traded in the period (the professional, the demo and the old one are not counted); two lost.
    expect(computed.data).toMatchObject({ show: 1, percent: '66.67', accounts: 3, lost: 2 });
    const at = Date.parse(computed.data.computed_at);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    const from = new Date(at);
    from.setUTCMonth(from.getUTCMonth() - 12);
    expect(computed.data.period_from).toBe(from.toISOString());

    // Members of the ESMA group see it; a professional client, a demo account and a guest (the standard group) do not.
    const shown = { percent: '66.67', accounts: 3, lost: 2, computed_at: computed.data.computed_at };
    expect((await api(t, lost1, WARNING)).data).toMatchObject({ show: 1, ...shown });
    expect((await api(t, won, WARNING)).data).toMatchObject({ show: 1, ...shown });
    expect((await api(t, professional, WARNING)).data).toMatchObject({ show: 0, ...shown });
    expect((await api(t, lost2, WARNING)).data).toMatchObject({ show: 0 });
    expect((await api(t, demo, WARNING)).data).toMatchObject({ show: 0 });
    expect((await call(t, 'GET', WARNING)).data).toMatchObject({ show: 0, ...shown });

    const audit = await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'risk_warning.compute'));
    expect(audit).toHaveLength(1);
    await expectAuditClean(t);
  });

  it('is computed by the leader at start when missing or a day old, and only risk staff compute it on request', async () => {
    const warnings = t.ctx.services.trading.riskWarnings;
    const first = await warnings.compute(new Date(Date.now() - 25 * 3_600_000));
    warnings.start();
    try {
      await expect.poll(async () => (await warnings.current())?.computed_at).not.toBe(first.computed_at);
    } finally {
      warnings.stop();
    }
    const support = await staffSession(t, ['support']);
    expect((await call(t, 'POST', COMPUTE, {}, { token: support })).code).toBe(1003);
    const trader = await real(esmaGroup);
    expect((await call(t, 'POST', COMPUTE, {}, { token: trader.token })).code).toBe(999);
  });
});
