import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { D, type Dec, dec } from '@tp/contract/decimal';
import { staffSession } from '../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { demoTrader, submit, symbolId, tick, tradingApp, type Trader } from '../../../test/trading/test-kit.ts';
import { staffAuditLog } from '../../platform/db/schema.ts';

const EURUSD = 'EURUSD';

/**
 * Four-eyes changes to money rules (FOUR_EYES=on): a risk member's save is only proposed; traders keep
 * the old terms until a second risk or admin member approves it. The proposer cannot approve it, other
 * roles cannot decide it, a rejection changes nothing, and a proposal whose target changed meanwhile is
 * superseded. Every step is in the audit log.
 */
describe.each(dbTargets)('four-eyes changes on %s', (target) => {
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

  const save = (token: string, params: Record<string, unknown>) =>
    call(t, 'POST', '/api/admin/symbols/save', { id: eur, ...params }, { token, json: true, lang: 'en' });
  const decide = (token: string, action: 'approve' | 'reject', params: Record<string, unknown>) =>
    call(t, 'POST', `/api/admin/changes/${action}`, params, { token, lang: 'en' });
  const row = async () =>
    ((await call(t, 'GET', '/v1/api/forex/trade_list', { searchCurrency: EURUSD })).data as any[]).find((r) => r.Id === eur);
  const terms = async () => {
    const r = await row();
    return { spread: dec(r.Spread).toString(), leverages: r.HasForexMultiple.map((l: { Value: number }) => l.Value) };
  };
  const changeOf = async (id: number) => {
    const list = await call(t, 'GET', '/api/admin/changes/list', { limit: 100 }, { token: risk2 });
    expect(list.code).toBe(1);
    return (list.data.data as any[]).find((c) => c.id === id);
  };
  const auditOf = async (id: number) =>
    (
      await t.ctx.db
        .select()
        .from(staffAuditLog)
        .where(and(eq(staffAuditLog.targetType, 'change'), eq(staffAuditLog.targetId, String(id))))
    ).map((r) => ({ action: r.action, before: r.before, after: r.after }));

  it('keeps a proposed spread and leverage change out of effect until a second risk member approves it', async () => {
    // A position open before the change: its account's margin level moves when the leverage 10 goes.
    const opened = await submit(t, trader, { type: 1, cont: '1', forex_id: eur, multiple: 10 });
    expect(opened.code).toBe(1);

    const proposed = await save(risk1, { spread: '0.0002', leverages: [20, 50, 100, 200, 500, 1000], fee_rate: '6' });
    expect(proposed.code).toBe(1);
    const id = proposed.data.pending_change_id as number;
    expect(id).toBeGreaterThan(0);
    expect(Object.keys(proposed.data)).toEqual(['pending_change_id']);

    // Not in effect: the trade list and an order still follow the old terms.
    expect(await terms()).toEqual({ spread: '0.00012', leverages: [10, 20, 50, 100, 200, 500] });
    expect((await submit(t, trader, { type: 1, cont: '0.01', forex_id: eur, multiple: 1000 })).code).not.toBe(1);
    const old = await submit(t, trader, { type: 1, cont: '0.01', forex_id: eur, multiple: 10 });
    expect(old.code).toBe(1);
    expect(old.data.TradeFee).toBe('0.050000');

    // The queue shows it first, with the diff and the preview at the current quote (mid 1.08506).
    const pending = await changeOf(id);
    expect(pending).toMatchObject({
      kind: 'symbol',
      target: String(eur),
      target_label: EURUSD,
      status: 'pending',
      before: { spread: '0.0001200000', leverages: [10, 20, 50, 100, 200, 500], fee_rate: '5.00000000' },
      after: { spread: '0.0002000000', leverages: [20, 50, 100, 200, 500, 1000], fee_rate: '6.00000000' },
    });
    const preview = pending.preview;
    expect(preview.symbols).toEqual([
      {
        id: eur,
        code: EURUSD,
        mid: '1.08506',
        leverage_before: 10,
        leverage_after: 20,
        // 1 lot x 100000 x 1.08506 / 10, and / 20; 5 and 6 USD per lot.
        margin_before: '10850.6',
        margin_after: '5425.3',
        fee_before: '5',
        fee_after: '6',
      },
    ]);
    // The open account's positions on EURUSD (leverage 10) are margined at 20 under the new list: its level doubles.
    const figures = await t.ctx.services.trading.accountFigures(trader.userId);
    const marginNow = dec('10850.6').plus(dec('108.506'));
    const levelAt = (m: string | Dec) => figures.equity.div(m).mul(100).toDecimalPlaces(2, D.ROUND_HALF_EVEN);
    const change = levelAt(marginNow.div(2)).minus(levelAt(marginNow)).toString();
    expect(preview).toMatchObject({ margin_accounts: 1, level_change_min: change, level_change_max: change, below_stop_out: null });

    // The proposer cannot approve it; a support member cannot decide it at all.
    const own = await decide(risk1, 'approve', { id });
    expect(own.code).toBe(1003);
    expect(own.msg).toBe('You cannot approve a change you proposed: another risk or admin member must approve it');
    expect((await decide(support, 'approve', { id })).code).toBe(1003);
    expect((await decide(support, 'reject', { id })).code).toBe(1003);
    expect(await terms()).toEqual({ spread: '0.00012', leverages: [10, 20, 50, 100, 200, 500] });

    const approved = await decide(risk2, 'approve', { id });
    expect(approved.code).toBe(1);
    expect(approved.data).toMatchObject({ id, status: 'approved', preview: null, proposer_email: expect.any(String) });
    expect(approved.data.decider_email).not.toBe(approved.data.proposer_email);

    expect(await terms()).toEqual({ spread: '0.0002', leverages: [20, 50, 100, 200, 500, 1000] });
    expect((await submit(t, trader, { type: 1, cont: '0.01', forex_id: eur, multiple: 10 })).code).not.toBe(1);
    const now = await submit(t, trader, { type: 1, cont: '0.01', forex_id: eur, multiple: 1000 });
    expect(now.code).toBe(1);
    expect(now.data.TradeFee).toBe('0.060000');
    expect((await decide(risk2, 'approve', { id })).code).not.toBe(1);

    expect(await auditOf(id)).toEqual([
      {
        action: 'change.propose',
        before: expect.objectContaining({ kind: 'symbol', spread: '0.0001200000' }),
        after: expect.objectContaining({ kind: 'symbol', spread: '0.0002000000' }),
      },
      {
        action: 'change.approve',
        before: expect.objectContaining({ spread: '0.0001200000', leverages: [10, 20, 50, 100, 200, 500] }),
        after: expect.objectContaining({ spread: '0.0002000000', leverages: [20, 50, 100, 200, 500, 1000] }),
      },
    ]);
  });

  it('leaves the symbol unchanged when a change is rejected', async () => {
    const proposed = await save(risk1, { max_lots: '5' });
    const id = proposed.data.pending_change_id as number;
    const rejected = await decide(risk2, 'reject', { id, reason: 'Too tight for our clients' });
    expect(rejected.code).toBe(1);
    expect(rejected.data).toMatchObject({ status: 'rejected', reason: 'Too tight for our clients' });
    expect(dec((await row()).ForexMaxCont).toString()).toBe('50');
    expect((await decide(risk2, 'approve', { id })).code).not.toBe(1);
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['change.propose', 'change.reject']);
    expect((await auditOf(id))[1]!.after).toMatchObject({ max_lots: '5.000000', reason: 'Too tight for our clients' });
  });

  it('supersedes a proposal whose target changed after it was made', async () => {
    const first = (await save(risk1, { spread: '0.0003' })).data.pending_change_id as number;
    const second = (await save(risk2, { spread: '0.0004' })).data.pending_change_id as number;
    expect((await decide(risk1, 'approve', { id: second })).code).toBe(1);
    expect((await terms()).spread).toBe('0.0004');

    const stale = await decide(risk2, 'approve', { id: first });
    expect(stale.code).not.toBe(1);
    expect(stale.msg).toBe(
      'The values changed after this change was proposed, so it was marked as superseded. Propose it again if it is still needed',
    );
    expect((await terms()).spread).toBe('0.0004');
    expect(await changeOf(first)).toMatchObject({ status: 'superseded', preview: null });
    expect((await auditOf(first)).map((a) => a.action)).toEqual(['change.propose', 'change.supersede']);
  });

  it('lists pending changes first', async () => {
    const id = (await save(risk1, { min_lots: '0.02' })).data.pending_change_id as number;
    const list = await call(t, 'GET', '/api/admin/changes/list', { page: 1, limit: 2 }, { token: risk2 });
    expect(list.data.total).toBeGreaterThanOrEqual(5);
    expect(list.data.data.map((c: { id: number; status: string }) => [c.id, c.status])[0]).toEqual([id, 'pending']);
    expect(list.data.data[1].status).not.toBe('pending');
    expect((await call(t, 'GET', '/api/admin/changes/list', {}, { token: support })).code).toBe(1003);
    expect((await decide(risk2, 'reject', { id })).code).toBe(1);
  });

  it('proposes a fee rate change, previewed per symbol, in effect only once approved', async () => {
    const change = { trade_fee_type: 1, rates: [{ id: eur, fee_rate: '7' }] };
    const proposed = await call(t, 'POST', '/api/admin/fees/save', change, { token: risk1, json: true });
    expect(proposed.code).toBe(1);
    const id = proposed.data.pending_change_id as number;
    expect((await submit(t, trader, { type: 1, cont: '0.01', forex_id: eur, multiple: 1000 })).data.TradeFee).toBe('0.060000');
    const pending = await changeOf(id);
    expect(pending).toMatchObject({
      kind: 'fees',
      before: { trade_fee_type: 1, fee_rate: { EURUSD: '6' } },
      after: { fee_rate: { EURUSD: '7' } },
    });
    expect(pending.preview.symbols).toEqual([expect.objectContaining({ code: EURUSD, fee_before: '6', fee_after: '7' })]);
    expect((await decide(risk2, 'approve', { id })).code).toBe(1);
    expect((await submit(t, trader, { type: 1, cont: '0.01', forex_id: eur, multiple: 1000 })).data.TradeFee).toBe('0.070000');
  });

  it('proposes a stop-out level, previewing the accounts at or below it now', async () => {
    const before = (await call(t, 'GET', '/api/admin/settings', {}, { token: risk1 })).data.stop_out_level;
    const proposed = await call(t, 'POST', '/api/admin/settings/save', { stop_out_level: '99' }, { token: risk1, json: true });
    expect(proposed.code).toBe(1);
    const id = proposed.data.pending_change_id as number;
    expect((await call(t, 'GET', '/api/admin/settings', {}, { token: risk1 })).data.stop_out_level).toBe(before);
    const figures = await t.ctx.services.trading.accountFigures(trader.userId);
    // The one open account stands far above 99 %.
    expect(figures.riskRate!.gt(99)).toBe(true);
    expect((await changeOf(id)).preview).toMatchObject({ below_stop_out: 0, below_margin_call: null, symbols: [] });
    expect((await decide(risk2, 'approve', { id })).code).toBe(1);
    expect((await call(t, 'GET', '/api/admin/settings', {}, { token: risk1 })).data.stop_out_level).toBe('99');
  });

  it('saves content settings at once; a save holding a risk level is proposed whole', async () => {
    const admin = await staffSession(t, ['admin']);
    const settings = async () => (await call(t, 'GET', '/api/admin/settings', {}, { token: admin })).data;
    const direct = await call(
      t,
      'POST',
      '/api/admin/settings/save',
      { announcement: 'Maintenance on Sunday' },
      { token: admin, json: true },
    );
    expect(direct.data.announcement).toBe('Maintenance on Sunday');
    const mixed = await call(
      t,
      'POST',
      '/api/admin/settings/save',
      { announcement: 'Changed', margin_call_level: '120' },
      { token: admin, json: true },
    );
    expect(Object.keys(mixed.data)).toEqual(['pending_change_id']);
    expect(await settings()).toMatchObject({ announcement: 'Maintenance on Sunday' });
    expect((await settings()).margin_call_level).not.toBe('120');
    // An admin is a second member too, but never for their own proposal.
    expect((await decide(admin, 'approve', { id: mixed.data.pending_change_id })).code).toBe(1003);
    expect((await decide(risk1, 'approve', { id: mixed.data.pending_change_id })).code).toBe(1);
    expect(await settings()).toMatchObject({ announcement: 'Changed', margin_call_level: '120' });
  });
});
