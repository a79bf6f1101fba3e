import { eq, inArray } from 'drizzle-orm';
import { D, dec, moneyStr } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import { userAccountBalance } from '../ledger/index.ts';
import { partnerPayoutSchedules, partnerPayouts, partners } from './schema.ts';
import { GLOBAL_SCHEDULE, type PayoutSchedule, lastEndedPeriod } from './schedule-rules.ts';
import { PartnerStatus, PayoutStatus, postPayout } from './service.ts';
import { PeriodicPass } from './periodic-pass.ts';

const EVERY_MS = 60_000;

type ScheduleRow = typeof partnerPayoutSchedules.$inferSelect;

/**
 * Scheduled payouts (on the leader): at the end of each period of a partner's schedule (their plan's,
 * or the global one), the partner's payable, rounded down to the cent and when at least the minimum,
 * becomes a payout with the period's key. The key is unique per partner, so two passes, two servers
 * or a restart create it once. It is a request staff approve as any other (PartnerService.reviewPayout),
 * or, with auto-approve, paid in the same transaction as its creation (payable to cash, as an approval
 * does). A partner with a request still open is passed over until it is decided (one open at a time).
 */
export class PartnerPayoutScheduler extends PeriodicPass<[now?: Date]> {
  constructor(ctx: AppContext) {
    super(ctx, EVERY_MS, 'partner payout schedule failed');
  }

  protected async pass(now: Date = new Date()): Promise<number> {
    const db = this.ctx.db;
    const schedules = new Map((await db.select().from(partnerPayoutSchedules)).map((s) => [s.planId, s]));
    if (![...schedules.values()].some((s) => s.schedule !== 'off')) return 0;
    const approved = await db
      .select({ userId: partners.userId, planId: partners.planId })
      .from(partners)
      .where(eq(partners.status, PartnerStatus.APPROVED));
    const due = approved.flatMap((p) => {
      const rule = (p.planId ? schedules.get(p.planId) : undefined) ?? schedules.get(GLOBAL_SCHEDULE);
      const period = rule ? lastEndedPeriod(rule.schedule as PayoutSchedule, now) : null;
      return rule && period ? [{ userId: p.userId, key: period.key, rule }] : [];
    });
    if (!due.length) return 0;
    // The payouts of these periods already made (one read for all): only the others are tried.
    const made = await db
      .select({ userId: partnerPayouts.partnerUserId, key: partnerPayouts.period })
      .from(partnerPayouts)
      .where(inArray(partnerPayouts.period, [...new Set(due.map((d) => d.key))]));
    const done = new Set(made.map((m) => `${m.userId}:${m.key}`));
    let created = 0;
    for (const d of due) if (!done.has(`${d.userId}:${d.key}`) && (await this.payOne(d.userId, d.key, d.rule))) created += 1;
    return created;
  }

  /** Creates (and with auto-approve pays) one partner's payout of one period, under the partner's lock. */
  private async payOne(userId: number, key: string, rule: ScheduleRow): Promise<boolean> {
    const ledger = this.ctx.services.ledger;
    return ledger.withLockedUser(userId, async (tx) => {
      const payable = dec(await userAccountBalance(tx, userId, 'commission')).toDecimalPlaces(2, D.ROUND_DOWN);
      if (payable.lte(0) || payable.lt(dec(rule.minimum))) return false;
      const status = rule.autoApprove ? PayoutStatus.PAID : PayoutStatus.REQUESTED;
      const [row] = await tx
        .insert(partnerPayouts)
        .values({
          partnerUserId: userId,
          amount: moneyStr(payable),
          status,
          period: key,
          reviewedAt: rule.autoApprove ? new Date() : null,
        })
        // The period's payout exists (another pass), or a request is open: nothing now.
        .onConflictDoNothing()
        .returning();
      if (!row) return false;
      if (rule.autoApprove) await postPayout(this.ctx, tx, row);
      return true;
    });
  }
}
