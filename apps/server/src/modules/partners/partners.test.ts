import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import * as adminApi from '@tp/contract/endpoints/admin';
import * as papi from '@tp/contract/endpoints/partners';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { api, cashOf, expectAuditClean, submit, symbolId, tick, tradingApp, type Trader } from '../../../test/trading/test-kit.ts';
import { and, eq } from 'drizzle-orm';
import { deposits, identityVerifications, staffAuditLog } from '../../platform/db/schema.ts';
import { insertUser } from '../auth/user-repository.ts';
import { fund, houseBalance, staffToken } from '../funding/test-helpers.ts';
import { PartnerAccrual } from './accrual.ts';
import { PartnerPayoutScheduler } from './payout-schedule.ts';

/**
 * Introducing brokers (issue 34) as scenario tables: partners approved with a plan, referred clients'
 * closes (full and partial) and first deposits, then what each partner earned, once, in the partner
 * area and the ledger. BTCUSDT: crypto, contract size 1, fee 3 USD per lot.
 */
const BTC = 'BTCUSDT';

describe.each(dbTargets)('partners on %s', (target) => {
  let t: TestApp;
  let btc: number;
  let finance: string;

  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
    finance = await staffToken(t, ['finance']);
  });
  afterAll(async () => t?.close());

  const as = (token: string | null, e: { method: unknown; path: string }, params: Record<string, unknown> = {}) =>
    call(t, (Array.isArray(e.method) ? e.method[0] : e.method) as 'GET' | 'POST', e.path, params, {
      token: token ?? undefined,
      json: true,
    });

  /** A real user (identity verified unless told), invited by `invitedBy`, with a session and money. */
  async function person(invitedBy?: number, opts: { verified?: boolean; balance?: string } = {}): Promise<Trader> {
    const user = await insertUser(t.ctx.db, {
      email: `p${randomBytes(6).toString('hex')}@example.com`,
      isDemo: false,
      invitedBy: invitedBy ?? null,
    });
    await t.ctx.services.ledger.openUserAccounts(t.ctx.db, user.id, false);
    if (opts.verified ?? true)
      await t.ctx.db.insert(identityVerifications).values({
        userId: user.id,
        name: 'Test User',
        cardId: 'A1234567',
        frontPic: '/uploads/f.png',
        reversePic: '/uploads/r.png',
        reviewStatus: 2,
      });
    if (opts.balance) await fund(t, user.id, opts.balance);
    return { token: await t.ctx.services.sessions.create({ userId: user.id }), userId: user.id, demoId: '' };
  }

  async function plan(p: Record<string, unknown>): Promise<number> {
    const res = await as(finance, papi.adminSavePlan, { name: 'plan', ...p });
    expect(res.code).toBe(1);
    return res.data.id as number;
  }

  /** A partner: applied and approved with the plan. */
  async function partner(planId: number, invitedBy?: number): Promise<Trader> {
    const p = await person(invitedBy);
    expect((await as(p.token, papi.apply)).data).toEqual({ status: 'applied' });
    const approved = await as(finance, papi.adminApprove, { user_id: p.userId, approve: 1, plan_id: planId });
    expect(approved.code).toBe(1);
    return p;
  }

  const payable = async (userId: number) => (await as((await tokenOf(userId))!, papi.summary)).data.commission_payable as string;
  const tokens = new Map<number, string>();
  const tokenOf = async (userId: number) => tokens.get(userId) ?? (await t.ctx.services.sessions.create({ userId }));

  /** Opens a long of `lots` and closes it in the given parts (the last part closes what is left). */
  async function trade(client: Trader, lots: string, parts: string[]): Promise<number[]> {
    await tick(t, BTC, '94990', '95010');
    const opened = await submit(t, client, { type: 1, cont: lots, forex_id: btc, multiple: 10 });
    expect(opened.code).toBe(1);
    const closedIds: number[] = [];
    for (const [i, part] of parts.entries()) {
      const res = await api(t, client, '/v1/api/forex/close', { id: opened.data.Id, ...(i < parts.length - 1 ? { cont: part } : {}) });
      expect(res.code).toBe(1);
      closedIds.push(res.data.Id);
    }
    return closedIds;
  }

  it('refuses an application of an unverified user, and a second approval', async () => {
    const u = await person(undefined, { verified: false });
    const res = await as(u.token, papi.apply);
    expect(res.code).not.toBe(1);
    const v = await person();
    await as(v.token, papi.apply);
    expect((await as(finance, papi.adminApprove, { user_id: v.userId, approve: 0 })).data.status).toBe('refused');
    expect((await as(finance, papi.adminApprove, { user_id: v.userId, approve: 1 })).code).not.toBe(1);
    // Not approved: no partner figures.
    expect((await as(v.token, papi.clients)).code).not.toBe(1);
    expect((await as(v.token, papi.summary)).data.status).toBe('refused');
  });

  describe('per-lot plan, two tiers (tier 2 gets 20% of the rate)', () => {
    const table = [
      { name: 'a full close of 1 lot', lots: '1', parts: ['1'], tier1: '7.00', tier2: '1.40', closes: 1 },
      { name: 'a partial close of 0.4 then the other 0.6', lots: '1', parts: ['0.4', '0.6'], tier1: '7.00', tier2: '1.40', closes: 2 },
      { name: 'three parts of 0.5 lots', lots: '0.5', parts: ['0.1', '0.15', '0.25'], tier1: '3.50', tier2: '0.70', closes: 3 },
    ];
    it.each(table)('$name pays the partner and the parent once', async (row) => {
      const planId = await plan({ per_lot: { crypto: '7', '*': '1' }, tier_shares: ['100', '20'] });
      const parent = await partner(planId);
      const child = await partner(planId, parent.userId);
      const client = await person(child.userId, { balance: '100000' });
      const feesBefore = dec(await houseBalance(t, 'fees'));
      const ids = await trade(client, row.lots, row.parts);
      expect(ids).toHaveLength(row.closes);
      // Two workers at once (as two servers would run them), then once more: each close pays once.
      await Promise.all([new PartnerAccrual(t.ctx).run(), new PartnerAccrual(t.ctx).run()]);
      await t.ctx.services.partnerAccrual.run();
      expect(await payable(child.userId)).toBe(row.tier1);
      expect(await payable(parent.userId)).toBe(row.tier2);
      const childRows = (await as(await tokenOf(child.userId), papi.commissions, { limit: 50 })).data;
      expect(childRows.total).toBe(row.closes);
      expect(childRows.data.every((c: { tier: number; kind: string }) => c.tier === 1 && c.kind === 'lot')).toBe(true);
      const parentRows = (await as(await tokenOf(parent.userId), papi.commissions, { limit: 50 })).data;
      expect(parentRows.total).toBe(row.closes);
      expect(parentRows.data.every((c: { tier: number }) => c.tier === 2)).toBe(true);
      // The house paid the commissions out of its fee revenue (the client's fees came in).
      const clientFees = dec(row.lots).times(3);
      expect(
        dec(await houseBalance(t, 'fees'))
          .minus(feesBefore)
          .toFixed(2),
      ).toBe(clientFees.minus(row.tier1).minus(row.tier2).toFixed(2));
      await expectAuditClean(t);
    });
  });

  it('pays on closes after the approval only', async () => {
    const planId = await plan({ per_lot: { '*': '5' }, tier_shares: ['100'] });
    const p = await person();
    await as(p.token, papi.apply);
    const client = await person(p.userId, { balance: '100000' });
    await trade(client, '1', ['1']);
    await t.ctx.services.partnerAccrual.run();
    expect((await as(finance, papi.adminApprove, { user_id: p.userId, approve: 1, plan_id: planId })).code).toBe(1);
    await t.ctx.services.partnerAccrual.run();
    expect(await payable(p.userId)).toBe('0.00');
    await trade(client, '0.5', ['0.5']);
    await t.ctx.services.partnerAccrual.run();
    expect(await payable(p.userId)).toBe('2.50');
    expect((await as(p.token, papi.summary)).data).toMatchObject({ volume_lots: '1.5', clients: 1, commission_total: '2.50' });
  });

  it('share-of-fee plan pays half the fee the client paid', async () => {
    const planId = await plan({ fee_share: '50', tier_shares: ['100'] });
    const p = await partner(planId);
    const client = await person(p.userId, { balance: '100000' });
    await trade(client, '2', ['2']);
    await t.ctx.services.partnerAccrual.run();
    // 2 lots x 3 USD fee, half of it.
    expect(await payable(p.userId)).toBe('3.00');
    const list = (await as(p.token, papi.commissions)).data.data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ kind: 'fee', tier: 1, amount: '3.000000', source_type: 'order' });
    await expectAuditClean(t);
  });

  it('CPA once, on the first deposit at or above the threshold', async () => {
    const planId = await plan({ cpa_amount: '50', cpa_threshold: '100', tier_shares: ['100', '10'] });
    const parent = await partner(planId);
    const p = await partner(planId, parent.userId);
    const client = await person(p.userId);
    const deposit = (amount: string) =>
      t.ctx.db
        .insert(deposits)
        .values({ userId: client.userId, type: 0, number: amount, currencyCode: 'USDT', proofImg: '-', status: 1, creditedUsd: amount });
    await deposit('20');
    await t.ctx.services.partnerAccrual.run();
    expect(await payable(p.userId)).toBe('0.00');
    await deposit('150');
    await deposit('500');
    await Promise.all([new PartnerAccrual(t.ctx).run(), new PartnerAccrual(t.ctx).run()]);
    await t.ctx.services.partnerAccrual.run();
    expect(await payable(p.userId)).toBe('50.00');
    expect(await payable(parent.userId)).toBe('5.00');
    expect((await as(p.token, papi.commissions)).data.data).toEqual([expect.objectContaining({ kind: 'cpa', amount: '50.000000' })]);
    await expectAuditClean(t);
  });

  it('a payout moves payable to the trading balance once; a second approval is refused', async () => {
    const planId = await plan({ per_lot: { '*': '10' }, tier_shares: ['100'] });
    const p = await partner(planId);
    const client = await person(p.userId, { balance: '100000' });
    await trade(client, '1', ['1']);
    await t.ctx.services.partnerAccrual.run();
    expect(await payable(p.userId)).toBe('10.00');
    expect((await as(p.token, papi.requestPayout, { amount: '10.01' })).code).not.toBe(1);
    const requested = await as(p.token, papi.requestPayout, { amount: '6' });
    expect(requested.data).toMatchObject({ amount: '6.00', status: 'requested' });
    // One open request at a time.
    expect((await as(p.token, papi.requestPayout, { amount: '1' })).code).not.toBe(1);
    const cashBefore = dec((await cashOf(t, p.userId)).balance);
    const results = await Promise.all([
      as(finance, papi.adminReviewPayout, { id: requested.data.id, approve: 1 }),
      as(finance, papi.adminReviewPayout, { id: requested.data.id, approve: 1 }),
    ]);
    // Two approvals at once: one pays, the other is refused.
    expect(results.filter((r) => r.code === 1)).toHaveLength(1);
    expect(results.find((r) => r.code !== 1)!.msg).toBe('This payout request was already reviewed.');
    expect((await as(finance, papi.adminReviewPayout, { id: requested.data.id, approve: 1 })).code).not.toBe(1);
    expect(
      dec((await cashOf(t, p.userId)).balance)
        .minus(cashBefore)
        .toString(),
    ).toBe('6');
    // Staff's payment is in the audit log, once.
    const audited = await t.ctx.db
      .select()
      .from(staffAuditLog)
      .where(and(eq(staffAuditLog.action, 'partner_payout.pay'), eq(staffAuditLog.targetId, String(requested.data.id))));
    expect(audited).toHaveLength(1);
    // The trader's account log names the payout.
    const log = await api(t, p, '/v1/api/main/accountLog/forexChange', {});
    expect(JSON.stringify(log.data)).toContain(`Partner commission paid out #${requested.data.id}`);
    const summary = (await as(p.token, papi.summary)).data;
    expect(summary).toMatchObject({
      commission_payable: '4.00',
      commission_total: '10.00',
      paid_out: '6.00',
      clients: 1,
      status: 'approved',
    });
    expect((await as(p.token, papi.payouts)).data.data[0]).toMatchObject({ status: 'paid', amount: '6.00' });
    await expectAuditClean(t);
  });

  it('a partner sees only their own clients (masked) and commissions', async () => {
    const planId = await plan({ per_lot: { '*': '1' }, tier_shares: ['100', '50'] });
    const parent = await partner(planId);
    const child = await partner(planId, parent.userId);
    const client = await person(child.userId, { balance: '100000' });
    await trade(client, '1', ['1']);
    await t.ctx.services.partnerAccrual.run();
    const mine = (await as(child.token, papi.clients)).data;
    expect(mine.total).toBe(1);
    expect(mine.data[0].email).toMatch(/^p.\*\*\*@ex\*\*\*\.com$/);
    expect(mine.data[0]).toMatchObject({ volume_lots: '1', commission: '1.00', sub_partner: false });
    const theirs = (await as(parent.token, papi.clients)).data;
    // The parent's one client is the sub-partner, never the sub-partner's client.
    expect(theirs.data.map((c: { sub_partner: boolean }) => c.sub_partner)).toEqual([true]);
    const other = await partner(planId);
    expect((await as(other.token, papi.clients)).data.total).toBe(0);
    expect((await as(other.token, papi.commissions)).data.total).toBe(0);
    // Staff calls need a staff session.
    expect((await as(child.token, papi.adminList)).code).not.toBe(1);
    const list = (await as(finance, papi.adminList, { status: 1, limit: 100 })).data;
    expect(list.data.find((p: { user_id: number }) => p.user_id === child.userId)).toMatchObject({
      parent_user_id: parent.userId,
      plan_id: planId,
    });
  });

  describe('scheduled payouts', () => {
    /** Tuesday 2026-11-24: the week from Monday 2026-11-16 ended the day before. */
    const tuesday = new Date('2026-11-24T09:00:00Z');
    const schedule = (p: Record<string, unknown>) => as(finance, papi.adminSaveSchedule, p);
    const payoutsOf = async (userId: number) =>
      (await as(await tokenOf(userId), papi.payouts, { limit: 50 })).data.data as {
        status: string;
        amount: string;
        period: string | null;
        id: number;
      }[];

    const table = [
      { name: 'weekly, approved by finance', auto: false, minimum: '5', lots: '1', rate: '10', paid: 1, status: 'requested' },
      { name: 'weekly, auto-approved', auto: true, minimum: '5', lots: '1', rate: '10', paid: 1, status: 'paid' },
      { name: 'weekly, below the minimum', auto: true, minimum: '20', lots: '1', rate: '10', paid: 0, status: '' },
    ];
    it.each(table)('$name: one payout per partner and period, two workers at once', async (row) => {
      const planId = await plan({ per_lot: { '*': row.rate }, tier_shares: ['100'] });
      expect((await schedule({ plan_id: planId, schedule: 'weekly', minimum: row.minimum, auto_approve: row.auto })).data).toEqual({
        plan_id: planId,
        schedule: 'weekly',
        minimum: dec(row.minimum).toFixed(2),
        auto_approve: row.auto,
      });
      const p = await partner(planId);
      const client = await person(p.userId, { balance: '100000' });
      await trade(client, row.lots, [row.lots]);
      await t.ctx.services.partnerAccrual.run();
      const cashBefore = dec((await cashOf(t, p.userId)).balance);
      // Two servers' workers at once, then again: the period pays once.
      await Promise.all([new PartnerPayoutScheduler(t.ctx).run(tuesday), new PartnerPayoutScheduler(t.ctx).run(tuesday)]);
      await t.ctx.services.partnerPayouts.run(new Date('2026-11-29T23:59:00Z'));
      const mine = await payoutsOf(p.userId);
      expect(mine).toHaveLength(row.paid);
      if (!row.paid) {
        expect(await payable(p.userId)).toBe('10.00');
        return;
      }
      expect(mine[0]).toMatchObject({ amount: '10.00', period: 'W2026-11-16', status: row.status });
      if (!row.auto) {
        // The same approval path as a requested payout.
        expect(await payable(p.userId)).toBe('10.00');
        expect((await as(finance, papi.adminPayouts, { status: 0, limit: 100 })).data.data.map((x: { id: number }) => x.id)).toContain(
          mine[0]!.id,
        );
        expect((await as(finance, papi.adminReviewPayout, { id: mine[0]!.id, approve: 1 })).code).toBe(1);
      }
      expect(await payable(p.userId)).toBe('0.00');
      expect(
        dec((await cashOf(t, p.userId)).balance)
          .minus(cashBefore)
          .toString(),
      ).toBe('10');
      // The next week's end pays what was earned since.
      await trade(client, '0.5', ['0.5']);
      await t.ctx.services.partnerAccrual.run();
      expect(await t.ctx.services.partnerPayouts.run(new Date('2026-12-01T00:00:00Z'))).toBeGreaterThanOrEqual(
        row.auto && row.minimum === '5' ? 1 : 0,
      );
      const later = await payoutsOf(p.userId);
      expect(later[0]).toMatchObject({ amount: '5.00', period: 'W2026-11-23' });
      expect((await as(p.token, papi.summary)).data.payout_schedule).toEqual({
        schedule: 'weekly',
        minimum: dec(row.minimum).toFixed(2),
        auto_approve: row.auto,
        next_at: expect.any(String),
      });
      await expectAuditClean(t);
    });

    it('monthly from the global schedule; a plan of its own overrides it; staff only', async () => {
      const planId = await plan({ per_lot: { '*': '3' }, tier_shares: ['100'] });
      const p = await partner(planId);
      const client = await person(p.userId, { balance: '100000' });
      await trade(client, '1', ['1']);
      await t.ctx.services.partnerAccrual.run();
      expect((await as(p.token, papi.adminSaveSchedule, { plan_id: 0, schedule: 'monthly' })).code).not.toBe(1);
      expect((await schedule({ plan_id: 999_999, schedule: 'monthly' })).code).not.toBe(1);
      expect((await schedule({ plan_id: 0, schedule: 'monthly', minimum: '1', auto_approve: true })).code).toBe(1);
      try {
        expect((await as(p.token, papi.summary)).data.payout_schedule).toMatchObject({
          schedule: 'monthly',
          minimum: '1.00',
          auto_approve: true,
        });
        expect((await as(finance, papi.adminSchedules)).data[0]).toEqual({
          plan_id: 0,
          schedule: 'monthly',
          minimum: '1.00',
          auto_approve: true,
        });
        // The plan's own schedule (off) wins over the global one.
        await schedule({ plan_id: planId, schedule: 'off' });
        await t.ctx.services.partnerPayouts.run(new Date('2026-12-02T00:00:00Z'));
        expect(await payoutsOf(p.userId)).toHaveLength(0);
        await schedule({ plan_id: planId, schedule: 'monthly', minimum: '1', auto_approve: true });
        await t.ctx.services.partnerPayouts.run(new Date('2026-12-02T00:00:00Z'));
        expect((await payoutsOf(p.userId))[0]).toMatchObject({ period: 'M2026-11', amount: '3.00', status: 'paid' });
        const audited = await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'partner_payout_schedule.save'));
        expect(audited.length).toBeGreaterThanOrEqual(3);
      } finally {
        await schedule({ plan_id: 0, schedule: 'off' });
      }
      await expectAuditClean(t);
    });
  });

  describe("clawback when staff reverse a referred client's trade (two tiers: 7 and 1.40 per lot)", () => {
    // paidOut: paid to the partner's balance before the reversal; spent: taken from that balance since;
    // clawed: what comes back from the tier-1 partner (the parent's 1.40 always comes from their payable).
    const table = [
      { name: 'before any payout', paidOut: '0', spent: '0', clawed: '7', fromCash: '0', reverseFirst: false },
      { name: 'after the partner was paid out in full', paidOut: '7', spent: '0', clawed: '7', fromCash: '7', reverseFirst: false },
      { name: 'after a partial payout', paidOut: '5', spent: '0', clawed: '7', fromCash: '5', reverseFirst: false },
      {
        name: 'after a payout the partner spent in part (only what is there)',
        paidOut: '7',
        spent: '4',
        clawed: '3',
        fromCash: '3',
        reverseFirst: false,
      },
      { name: 'reversed before the accrual weighed the close', paidOut: '0', spent: '0', clawed: '0', fromCash: '0', reverseFirst: true },
    ];
    it.each(table)('$name: every tier clawed back once', async (row) => {
      const risk = await staffToken(t, ['risk']);
      const planId = await plan({ per_lot: { crypto: '7' }, tier_shares: ['100', '20'] });
      const parent = await partner(planId);
      const child = await partner(planId, parent.userId);
      const client = await person(child.userId, { balance: '100000' });
      const feesBefore = dec(await houseBalance(t, 'fees'));
      const [orderId] = await trade(client, '1', ['1']);
      const reverse = () => as(risk, adminApi.positionReverse, { id: orderId, reason: 'off-market price' });
      if (row.reverseFirst) expect((await reverse()).code).toBe(1);
      await t.ctx.services.partnerAccrual.run();
      if (!row.reverseFirst) {
        expect(await payable(child.userId)).toBe('7.00');
        expect(await payable(parent.userId)).toBe('1.40');
      }
      if (row.paidOut !== '0') {
        const req = await as(child.token, papi.requestPayout, { amount: row.paidOut });
        expect((await as(finance, papi.adminReviewPayout, { id: req.data.id, approve: 1 })).code).toBe(1);
      }
      if (row.spent !== '0') {
        const taken = await as(finance, adminApi.adjustBalance, {
          user_id: child.userId,
          amount: `-${row.spent}`,
          reason: 'withdrawn elsewhere',
          key: `spent-${child.userId}`,
        });
        expect(taken.code).toBe(1);
      }
      const cashBefore = dec((await cashOf(t, child.userId)).balance);
      if (!row.reverseFirst) expect((await reverse()).code).toBe(1);
      // Two workers at once, then again: clawed back once.
      await Promise.all([new PartnerAccrual(t.ctx).run(), new PartnerAccrual(t.ctx).run()]);
      await t.ctx.services.partnerAccrual.run();
      expect(await payable(child.userId)).toBe('0.00');
      expect(await payable(parent.userId)).toBe('0.00');
      expect(cashBefore.minus(dec((await cashOf(t, child.userId)).balance)).toString()).toBe(row.fromCash);
      if (row.fromCash !== '0') {
        // The partner's account log names what was taken from their balance, and why.
        const log = await api(t, child, '/v1/api/main/accountLog/forexChange', {});
        expect(JSON.stringify(log.data)).toContain(`Partner commission clawed back #${orderId}`);
      }
      const childRows = (await as(child.token, papi.commissions, { limit: 50 })).data.data as {
        kind: string;
        amount: string;
        tier: number;
      }[];
      const parentRows = (await as(parent.token, papi.commissions, { limit: 50 })).data.data as {
        kind: string;
        amount: string;
        tier: number;
      }[];
      if (row.reverseFirst) {
        expect(childRows).toEqual([]);
        expect(parentRows).toEqual([]);
      } else {
        expect(childRows.filter((c) => c.kind === 'clawback')).toEqual([
          expect.objectContaining({ tier: 1, amount: `-${dec(row.clawed).toFixed(6)}` }),
        ]);
        expect(parentRows.filter((c) => c.kind === 'clawback')).toEqual([expect.objectContaining({ tier: 2, amount: '-1.400000' })]);
        // The back office lists the clawbacks with the partner they were taken from.
        const staffRows = (await as(finance, papi.adminCommissions, { user_id: child.userId, clawbacks: 1 })).data;
        expect(staffRows).toEqual({
          data: [
            expect.objectContaining({
              kind: 'clawback',
              partner_user_id: child.userId,
              source_id: orderId,
              amount: `-${dec(row.clawed).toFixed(6)}`,
            }),
          ],
          total: 1,
        });
        expect((await as(child.token, papi.summary)).data).toMatchObject({
          commission_total: dec(7).minus(row.clawed).toFixed(2),
          commission_payable: '0.00',
          paid_out: dec(row.paidOut).toFixed(2),
          // A reversed trade is no volume either.
          volume_lots: '0',
        });
      }
      // The house got every commission back (less what the partner's balance could not cover), and the
      // client's fee (3) was given back: the house's fee revenue is where it was, less what was not recovered.
      const notRecovered = row.reverseFirst ? dec(0) : dec(7).minus(row.clawed);
      expect(
        dec(await houseBalance(t, 'fees'))
          .minus(feesBefore)
          .toFixed(2),
      ).toBe(notRecovered.neg().toFixed(2));
      await expectAuditClean(t);
    });
  });
});
