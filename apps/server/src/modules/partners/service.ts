import { type SQL, and, asc, count, desc, eq, gte, inArray, sql, sum } from 'drizzle-orm';
import { D, type Dec, dec, moneyStr } from '@tp/contract/decimal';
import type { AppContext, AuthStaff } from '../../context.ts';
import { fail, invalid, notFound } from '../../http/errors.ts';
import type { Tx } from '../../platform/db/client.ts';
import { invitedPage, invitersOf, realUsersInvitedBy, userContacts } from '../auth/index.ts';
import { reviewStatusOf } from '../identity/index.ts';
import { InsufficientFundsError, userAccountBalance } from '../ledger/index.ts';
import { maskEmail, maskMobile } from '../social/index.ts';
import { closedLotsOf } from '../trading/index.ts';
import { GLOBAL_SCHEDULE, type PayoutSchedule, listSchedules, nextPeriodEnd, scheduleFor, scheduleView } from './schedule-rules.ts';
import { partnerCommissions, partnerPayoutSchedules, partnerPayouts, partnerPlans, partners } from './schema.ts';

export const PartnerStatus = { APPLIED: 0, APPROVED: 1, REFUSED: 2 } as const;
export const PayoutStatus = { REQUESTED: 0, PAID: 1, REFUSED: 2 } as const;

/** Ledger entry types of the partners module (the account log and the audit read them). */
export const PARTNER_ENTRY = {
  commission: 'partner_commission',
  payout: 'partner_payout',
  /** Takes back a commission already paid (e.g. a referred client's trade reversed by staff; the product has no such reversal yet). */
  clawback: 'partner_clawback',
} as const;

export interface PlanInput {
  id?: number;
  name: string;
  per_lot: Record<string, string>;
  fee_share: string;
  cpa_amount: string;
  cpa_threshold: string;
  tier_shares: string[];
}

type PlanRow = typeof partnerPlans.$inferSelect;

export const planView = (p: PlanRow) => ({
  id: p.id,
  name: p.name,
  per_lot: p.perLot,
  fee_share: dec(p.feeShare).toString(),
  cpa_amount: dec(p.cpaAmount).toString(),
  cpa_threshold: dec(p.cpaThreshold).toString(),
  tier_shares: p.tierShares.map((s) => dec(s).toString()),
});

const STATUS_NAMES = ['applied', 'approved', 'refused'] as const;
const PAYOUT_NAMES = ['requested', 'paid', 'refused'] as const;

/** Introducing brokers: applications, plans, the partner area's figures and payouts. Accrual is in accrual.ts. */
export class PartnerService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.db;
  }

  async partnerOf(userId: number) {
    const [row] = await this.db.select().from(partners).where(eq(partners.userId, userId)).limit(1);
    return row;
  }

  /** A real, identity-verified user asks to become a partner (again after a refusal). */
  async apply(userId: number) {
    const review = await reviewStatusOf(this.db, [userId]);
    if (review.get(userId) !== 2) throw fail('partner_not_verified');
    const existing = await this.partnerOf(userId);
    if (existing?.status === PartnerStatus.APPROVED || existing?.status === PartnerStatus.APPLIED)
      return { status: STATUS_NAMES[existing.status] };
    await this.db
      .insert(partners)
      .values({ userId, status: PartnerStatus.APPLIED })
      .onConflictDoUpdate({
        target: partners.userId,
        set: { status: PartnerStatus.APPLIED, reviewedBy: null },
        where: eq(partners.status, PartnerStatus.REFUSED),
      });
    return { status: 'applied' as const };
  }

  /** Staff approve (with a plan) or refuse an application; a reviewed one is refused. */
  async review(staff: AuthStaff, userId: number, approve: boolean, planId: number | undefined, note: string) {
    if (approve && planId !== undefined) await this.plan(planId);
    const inviter = (await invitersOf(this.db, [userId])).get(userId);
    const parent = inviter === undefined ? undefined : await this.partnerOf(inviter);
    const [row] = await this.db
      .update(partners)
      .set(
        approve
          ? {
              status: PartnerStatus.APPROVED,
              planId: planId ?? null,
              parentUserId: parent?.status === PartnerStatus.APPROVED ? parent.userId : null,
              approvedAt: new Date(),
              reviewedBy: staff.id,
              note,
            }
          : { status: PartnerStatus.REFUSED, reviewedBy: staff.id, note },
      )
      .where(and(eq(partners.userId, userId), eq(partners.status, PartnerStatus.APPLIED)))
      .returning();
    if (!row) throw fail('partner_not_waiting');
    await this.ctx.services.staff.audit(
      this.db,
      staff,
      approve ? 'partner.approve' : 'partner.refuse',
      { type: 'partner', id: userId },
      { status: PartnerStatus.APPLIED },
      { status: row.status, plan_id: row.planId, parent_user_id: row.parentUserId, note },
    );
    return this.listRow(row);
  }

  async plan(id: number): Promise<PlanRow> {
    const [row] = await this.db.select().from(partnerPlans).where(eq(partnerPlans.id, id)).limit(1);
    if (!row) throw notFound('partner_plan_not_found');
    return row;
  }

  async plans() {
    const rows = await this.db.select().from(partnerPlans).orderBy(asc(partnerPlans.id));
    return rows.map(planView);
  }

  async savePlan(staff: AuthStaff, input: PlanInput) {
    const values = {
      name: input.name,
      perLot: Object.fromEntries(Object.entries(input.per_lot).map(([k, v]) => [k, dec(v).toString()])),
      feeShare: moneyStr(input.fee_share),
      cpaAmount: moneyStr(input.cpa_amount),
      cpaThreshold: moneyStr(input.cpa_threshold),
      tierShares: input.tier_shares.map((s) => dec(s).toString()),
    };
    if (input.id) {
      const [row] = await this.db
        .update(partnerPlans)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(partnerPlans.id, input.id))
        .returning();
      if (!row) throw notFound('partner_plan_not_found');
      await this.ctx.services.staff.audit(this.db, staff, 'partner_plan.save', { type: 'partner_plan', id: row.id }, null, planView(row));
      return planView(row);
    }
    const [row] = await this.db.insert(partnerPlans).values(values).returning();
    await this.ctx.services.staff.audit(this.db, staff, 'partner_plan.save', { type: 'partner_plan', id: row!.id }, null, planView(row!));
    return planView(row!);
  }

  async setPlan(staff: AuthStaff, userId: number, planId: number) {
    await this.plan(planId);
    const before = await this.partnerOf(userId);
    const [row] = await this.db.update(partners).set({ planId }).where(eq(partners.userId, userId)).returning();
    if (!row) throw notFound('partner_not_found');
    await this.ctx.services.staff.audit(
      this.db,
      staff,
      'partner.set_plan',
      { type: 'partner', id: userId },
      { plan_id: before?.planId ?? null },
      { plan_id: planId },
    );
    return this.listRow(row);
  }

  private async listRow(row: typeof partners.$inferSelect) {
    const contact = (await userContacts(this.db, [row.userId])).get(row.userId);
    return {
      user_id: row.userId,
      uid: contact?.uid ?? '',
      email: contact?.email ?? null,
      status: STATUS_NAMES[row.status] ?? 'applied',
      plan_id: row.planId,
      parent_user_id: row.parentUserId,
      note: row.note,
      approved_at: row.approvedAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
    };
  }

  /** Staff: partners and applications, newest first, optionally of one status. */
  async list(status: number | undefined, page: number, limit: number) {
    const where = status === undefined ? undefined : eq(partners.status, status);
    const [rows, [counted]] = await Promise.all([
      this.db
        .select()
        .from(partners)
        .where(where)
        .orderBy(desc(partners.createdAt), desc(partners.userId))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(partners).where(where),
    ]);
    const contacts = await userContacts(
      this.db,
      rows.map((r) => r.userId),
    );
    return {
      data: rows.map((row) => ({
        user_id: row.userId,
        uid: contacts.get(row.userId)?.uid ?? '',
        email: contacts.get(row.userId)?.email ?? null,
        status: STATUS_NAMES[row.status] ?? 'applied',
        plan_id: row.planId,
        parent_user_id: row.parentUserId,
        note: row.note,
        approved_at: row.approvedAt?.toISOString() ?? null,
        created_at: row.createdAt.toISOString(),
      })),
      total: Number(counted?.n ?? 0),
    };
  }

  private async approved(userId: number) {
    const row = await this.partnerOf(userId);
    if (!row || row.status !== PartnerStatus.APPROVED) throw fail('partner_not_approved');
    return row;
  }

  /** The partner area's figures: status, clients, their volume, commissions (total, payable, paid, by day). */
  async summary(userId: number) {
    const row = await this.partnerOf(userId);
    const status: 'none' | (typeof STATUS_NAMES)[number] = row ? (STATUS_NAMES[row.status] ?? 'applied') : 'none';
    const clients = await realUsersInvitedBy(this.db, [userId]);
    const lots = await closedLotsOf(
      this.db,
      clients.map((c) => c.id),
    );
    const volume = [...lots.values()].reduce((a, v) => a.plus(v), new D(0));
    const [totals] = await this.db
      .select({ total: sum(partnerCommissions.amount) })
      .from(partnerCommissions)
      .where(eq(partnerCommissions.partnerUserId, userId));
    const since = new Date(Date.now() - 30 * 86_400_000);
    const byDay = await this.db
      .select({
        day: sql<string>`to_char(${partnerCommissions.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
        total: sum(partnerCommissions.amount),
      })
      .from(partnerCommissions)
      .where(and(eq(partnerCommissions.partnerUserId, userId), gte(partnerCommissions.createdAt, since)))
      .groupBy(sql`1`)
      .orderBy(sql`1 desc`);
    const [paid] = await this.db
      .select({ total: sum(partnerPayouts.amount) })
      .from(partnerPayouts)
      .where(and(eq(partnerPayouts.partnerUserId, userId), eq(partnerPayouts.status, PayoutStatus.PAID)));
    const payable = await this.payable(userId);
    const subPartners = await this.db
      .select({ n: count() })
      .from(partners)
      .where(and(eq(partners.parentUserId, userId), eq(partners.status, PartnerStatus.APPROVED)));
    const plan = row?.planId ? await this.plan(row.planId).catch(() => undefined) : undefined;
    const schedule = await scheduleFor(this.ctx, row?.planId ?? null);
    const nextAt = nextPeriodEnd(schedule.schedule, new Date());
    return {
      status,
      clients: clients.length,
      sub_partners: Number(subPartners[0]?.n ?? 0),
      volume_lots: volume.toString(),
      commission_total: dec(totals?.total ?? 0).toFixed(2),
      commission_payable: payable.toFixed(2),
      paid_out: dec(paid?.total ?? 0).toFixed(2),
      by_day: byDay.map((d) => ({ day: d.day, amount: dec(d.total ?? 0).toFixed(2) })),
      plan: plan ? planView(plan) : null,
      payout_schedule: {
        schedule: schedule.schedule,
        minimum: schedule.minimum,
        auto_approve: schedule.auto_approve,
        next_at: nextAt?.toISOString() ?? null,
      },
    };
  }

  /** Staff: the global payout schedule and the plans' own. */
  async schedules() {
    return listSchedules(this.ctx);
  }

  /** Staff set the scheduled payouts globally (plan 0) or for one plan; audited with the change. */
  async saveSchedule(staff: AuthStaff, input: { plan_id: number; schedule: PayoutSchedule; minimum: string; auto_approve: boolean }) {
    if (input.plan_id !== GLOBAL_SCHEDULE) await this.plan(input.plan_id);
    const [before] = await this.db.select().from(partnerPayoutSchedules).where(eq(partnerPayoutSchedules.planId, input.plan_id)).limit(1);
    const values = { schedule: input.schedule, minimum: moneyStr(input.minimum), autoApprove: input.auto_approve, updatedAt: new Date() };
    const [row] = await this.db
      .insert(partnerPayoutSchedules)
      .values({ planId: input.plan_id, ...values })
      .onConflictDoUpdate({ target: partnerPayoutSchedules.planId, set: values })
      .returning();
    const view = scheduleView(row, input.plan_id);
    await this.ctx.services.staff.audit(
      this.db,
      staff,
      'partner_payout_schedule.save',
      { type: 'partner_plan', id: input.plan_id },
      before ? scheduleView(before, input.plan_id) : null,
      view,
    );
    return view;
  }

  /** Commission earned and not paid out yet: the partner's commission account in the ledger. */
  async payable(userId: number): Promise<Dec> {
    return dec(await userAccountBalance(this.db, userId, 'commission'));
  }

  /** The partner's own referred clients (masked), their volume and the commission each brought. */
  async clients(userId: number, page: number, limit: number) {
    await this.approved(userId);
    const { rows, total } = await invitedPage(this.db, userId, page, limit);
    const ids = rows.map((r) => r.id);
    const lots = await closedLotsOf(this.db, ids);
    const earned = ids.length
      ? await this.db
          .select({ clientUserId: partnerCommissions.clientUserId, total: sum(partnerCommissions.amount) })
          .from(partnerCommissions)
          .where(and(eq(partnerCommissions.partnerUserId, userId), inArray(partnerCommissions.clientUserId, ids)))
          .groupBy(partnerCommissions.clientUserId)
      : [];
    const subs = ids.length
      ? await this.db
          .select({ userId: partners.userId })
          .from(partners)
          .where(and(inArray(partners.userId, ids), eq(partners.status, PartnerStatus.APPROVED)))
      : [];
    const isSub = new Set(subs.map((s) => s.userId));
    const byClient = new Map(earned.map((e) => [e.clientUserId, e.total ?? '0']));
    return {
      data: rows.map((r) => ({
        uid: r.uid,
        email: r.email ? maskEmail(r.email) : r.mobile ? maskMobile(r.mobile) : '',
        volume_lots: dec(lots.get(r.id) ?? 0).toString(),
        commission: dec(byClient.get(r.id) ?? 0).toFixed(2),
        sub_partner: isSub.has(r.id),
        created_at: r.createdAt.toISOString(),
      })),
      total,
    };
  }

  /** The partner's commissions, newest first. */
  async commissions(userId: number, page: number, limit: number) {
    await this.approved(userId);
    const { rows, total } = await this.commissionRows(eq(partnerCommissions.partnerUserId, userId), page, limit);
    return { data: rows.map(({ partner_user_id: _p, partner_email: _e, ...r }) => r), total };
  }

  /** Staff: every partner's commissions (or one partner's), optionally only clawbacks, newest first. */
  async adminCommissions(userId: number | undefined, clawbacksOnly: boolean, page: number, limit: number) {
    const conds = [];
    if (userId !== undefined) conds.push(eq(partnerCommissions.partnerUserId, userId));
    if (clawbacksOnly) conds.push(eq(partnerCommissions.kind, 'clawback'));
    const { rows, total } = await this.commissionRows(conds.length ? and(...conds) : undefined, page, limit);
    return { data: rows, total };
  }

  /** One page of commissions, the client masked (partners and staff alike see it masked), with the partner. */
  private async commissionRows(where: SQL | undefined, page: number, limit: number) {
    const [rows, [counted]] = await Promise.all([
      this.db
        .select()
        .from(partnerCommissions)
        .where(where)
        .orderBy(desc(partnerCommissions.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(partnerCommissions).where(where),
    ]);
    const contacts = await userContacts(this.db, [...new Set(rows.flatMap((r) => [r.clientUserId, r.partnerUserId]))]);
    return {
      rows: rows.map((r) => {
        const c = contacts.get(r.clientUserId);
        return {
          id: r.id,
          client: c?.email ? maskEmail(c.email) : c?.mobile ? maskMobile(c.mobile) : '',
          tier: r.tier,
          kind: r.kind,
          source_type: r.sourceType,
          source_id: r.sourceId,
          lots: dec(r.lots).toString(),
          amount: dec(r.amount).toFixed(6),
          created_at: r.createdAt.toISOString(),
          partner_user_id: r.partnerUserId,
          partner_email: contacts.get(r.partnerUserId)?.email ?? null,
        };
      }),
      total: Number(counted?.n ?? 0),
    };
  }

  /** The partner asks for (part of) the payable to be paid to their trading balance; staff approve. One open request at a time. */
  async requestPayout(userId: number, amount: string) {
    await this.approved(userId);
    const value = dec(amount);
    if (!value.isFinite() || value.lte(0) || value.decimalPlaces() > 2) throw invalid('partner_payout_amount');
    if (value.gt(await this.payable(userId))) throw fail('partner_payout_too_much');
    const [row] = await this.db
      .insert(partnerPayouts)
      .values({ partnerUserId: userId, amount: moneyStr(value) })
      .onConflictDoNothing()
      .returning();
    if (!row) throw fail('partner_payout_open');
    return payoutView(row);
  }

  async payouts(userId: number | undefined, status: number | undefined, page: number, limit: number) {
    const conds = [];
    if (userId !== undefined) conds.push(eq(partnerPayouts.partnerUserId, userId));
    if (status !== undefined) conds.push(eq(partnerPayouts.status, status));
    const where = conds.length ? and(...conds) : undefined;
    const [rows, [counted]] = await Promise.all([
      this.db
        .select()
        .from(partnerPayouts)
        .where(where)
        .orderBy(desc(partnerPayouts.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(partnerPayouts).where(where),
    ]);
    const contacts = await userContacts(
      this.db,
      rows.map((r) => r.partnerUserId),
    );
    return { data: rows.map((r) => payoutView(r, contacts.get(r.partnerUserId)?.email ?? null)), total: Number(counted?.n ?? 0) };
  }

  /**
   * Staff pay (or refuse) a requested payout: the payable moves to the partner's cash in one ledger
   * transaction, with the request's guarded update (a second approval finds nothing to approve).
   */
  async reviewPayout(staff: AuthStaff, id: number, approve: boolean) {
    const [request] = await this.db.select().from(partnerPayouts).where(eq(partnerPayouts.id, id)).limit(1);
    if (!request) throw notFound('partner_payout_not_found');
    if (!approve) {
      const [row] = await this.db
        .update(partnerPayouts)
        .set({ status: PayoutStatus.REFUSED, reviewedBy: staff.id, reviewedAt: new Date() })
        .where(and(eq(partnerPayouts.id, id), eq(partnerPayouts.status, PayoutStatus.REQUESTED)))
        .returning();
      if (!row) throw fail('partner_payout_reviewed');
      await this.ctx.services.staff.audit(
        this.db,
        staff,
        'partner_payout.refuse',
        { type: 'partner_payout', id },
        { status: 0 },
        { status: row.status },
      );
      return payoutView(row);
    }
    const ledger = this.ctx.services.ledger;
    try {
      return await ledger.withLockedUser(request.partnerUserId, async (tx) => {
        const [row] = await tx
          .update(partnerPayouts)
          .set({ status: PayoutStatus.PAID, reviewedBy: staff.id, reviewedAt: new Date() })
          .where(and(eq(partnerPayouts.id, id), eq(partnerPayouts.status, PayoutStatus.REQUESTED)))
          .returning();
        if (!row) throw fail('partner_payout_reviewed');
        const userId = row.partnerUserId;
        await postPayout(this.ctx, tx, row);
        await this.ctx.services.staff.audit(
          tx,
          staff,
          'partner_payout.pay',
          { type: 'partner_payout', id },
          { status: PayoutStatus.REQUESTED },
          { status: row.status, amount: row.amount, user_id: userId },
        );
        return payoutView(row);
      });
    } catch (err) {
      if (err instanceof InsufficientFundsError) throw fail('partner_payout_too_much');
      throw err;
    }
  }

  /** Staff: the partner tree under one partner (or every root), as parent links. */
  async tree() {
    const rows = await this.db
      .select({ userId: partners.userId, parentUserId: partners.parentUserId, planId: partners.planId })
      .from(partners)
      .where(eq(partners.status, PartnerStatus.APPROVED))
      .orderBy(asc(partners.userId))
      .limit(5_000);
    const contacts = await userContacts(
      this.db,
      rows.map((r) => r.userId),
    );
    return rows.map((r) => ({
      user_id: r.userId,
      parent_user_id: r.parentUserId,
      plan_id: r.planId,
      email: contacts.get(r.userId)?.email ?? null,
    }));
  }
}

/** A payout's money movement: the partner's payable to their trading balance, once per payout (its guarded write is the caller's). */
export async function postPayout(ctx: AppContext, tx: Tx, row: { id: number; partnerUserId: number; amount: string }) {
  const userId = row.partnerUserId;
  await ctx.services.ledger.post(tx, {
    kind: PARTNER_ENTRY.payout,
    isDemo: false,
    refType: 'partner_payout',
    refId: row.id,
    idemKey: `partner_payout:${row.id}`,
    duplicateIsError: true,
    postings: [
      { account: { userId, kind: 'commission' }, amount: dec(row.amount).neg(), type: PARTNER_ENTRY.payout, memo: `#${row.id}` },
      { account: { userId, kind: 'cash' }, amount: row.amount, type: PARTNER_ENTRY.payout, memo: `#${row.id}` },
    ],
  });
}

function payoutView(row: typeof partnerPayouts.$inferSelect, email: string | null = null) {
  return {
    id: row.id,
    user_id: row.partnerUserId,
    email,
    amount: dec(row.amount).toFixed(2),
    status: PAYOUT_NAMES[row.status] ?? 'requested',
    period: row.period,
    created_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
  };
}
