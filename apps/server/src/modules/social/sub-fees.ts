import { type Dec, dec, moneyStr, ZERO } from '@tp/contract/decimal';
import { and, count, desc, eq, inArray, isNotNull, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { InsufficientFundsError } from '../ledger/index.ts';
import { accountNotice } from '../trading/index.ts';
import { copySubFees, copySubscriptions } from './schema.ts';

/** A subscription fee pays for 30 days of copying. */
export const SUB_FEE_PERIOD_MS = 30 * 86_400_000;
/** The pause reason of a subscription whose fee could not be paid (the follower resumes it by paying). */
export const FEE_UNPAID = 'fee_unpaid';

export type ChargeResult = 'not_due' | 'paid' | 'unpaid';

/** The follower cannot pay now (cash or free margin below the fee): the transaction is rolled back. */
class UnpaidError extends Error {
  constructor(
    readonly period: number,
    readonly fee: Dec,
  ) {
    super('subscription fee unpaid');
  }
}

/**
 * The optional subscription fee: a provider's fee per 30 days, charged from the follower to the
 * provider through the ledger at subscription and at the start of each period after. A period is
 * numbered (1, 2, ...) from the subscription's row, read and advanced under the row lock of both
 * users' accounts and the subscription, and written once: a unique (subscription, period) fee row
 * and the ledger key copy_sub_fee:<subscription>:<period> commit with the new paid_until, so two
 * servers, a retry or the renewal job racing a resume charge a period exactly once.
 */
export class SubscriptionFees {
  constructor(private readonly ctx: AppContext) {}

  /**
   * Charges the subscription's next period when it is due (a fee, and no period paid beyond `now`).
   * 'unpaid': the follower's cash or free margin is below the fee; nothing was written.
   */
  async chargeIfDue(subscriptionId: number, now: Date = new Date()): Promise<ChargeResult> {
    const [head] = await this.ctx.db
      .select({ followerId: copySubscriptions.followerId, providerId: copySubscriptions.providerId })
      .from(copySubscriptions)
      .where(eq(copySubscriptions.id, subscriptionId))
      .limit(1);
    if (!head) return 'not_due';
    const { ledger, trading } = this.ctx.services;
    try {
      return await ledger.withLockedUsers([head.followerId, head.providerId], async (tx, balances) => {
        const [sub] = await tx.select().from(copySubscriptions).where(eq(copySubscriptions.id, subscriptionId)).for('update');
        if (!sub || dec(sub.subFee).lte(0) || (sub.paidUntil && sub.paidUntil > now)) return 'not_due';
        const fee = dec(sub.subFee);
        const period = sub.feePeriods + 1;
        // Back to back while renewed on time; from now after a gap (paused unpaid): a gap is never charged.
        const from = sub.paidUntil && now.getTime() - sub.paidUntil.getTime() < SUB_FEE_PERIOD_MS ? sub.paidUntil : now;
        const until = new Date(from.getTime() + SUB_FEE_PERIOD_MS);
        const cash = balances.get(sub.followerId)?.balance ?? ZERO;
        const { freeMargin } = await trading.accountFigures(sub.followerId, tx);
        if (fee.gt(cash) || fee.gt(freeMargin)) throw new UnpaidError(period, fee);
        const [claimed] = await tx
          .insert(copySubFees)
          .values({
            subscriptionId: sub.id,
            followerId: sub.followerId,
            period,
            fee: moneyStr(fee),
            status: 'paid',
            paidFrom: from,
            paidUntil: until,
          })
          .onConflictDoUpdate({
            target: [copySubFees.subscriptionId, copySubFees.period],
            set: { status: 'paid', fee: moneyStr(fee), paidFrom: from, paidUntil: until },
            setWhere: eq(copySubFees.status, 'unpaid'),
          })
          .returning({ id: copySubFees.id });
        if (!claimed) return 'not_due';
        await ledger.post(tx, {
          kind: 'copy_sub_fee',
          isDemo: false,
          refType: 'copy_subscription',
          refId: sub.id,
          idemKey: `copy_sub_fee:${sub.id}:${period}`,
          duplicateIsError: true,
          postings: [
            { account: { userId: sub.followerId, kind: 'cash' }, amount: fee.neg(), type: 'copy_sub_fee', memo: `#${sub.providerId}` },
            { account: { userId: sub.providerId, kind: 'cash' }, amount: fee, type: 'copy_sub_fee_income', memo: `#${sub.id}` },
          ],
        });
        await tx.update(copySubscriptions).set({ feePeriods: period, paidUntil: until }).where(eq(copySubscriptions.id, sub.id));
        return 'paid';
      });
    } catch (err) {
      if (err instanceof UnpaidError || err instanceof InsufficientFundsError) return 'unpaid';
      throw err;
    }
  }

  /**
   * The renewal: each live subscription with a fee whose period ended pays the next one; one that
   * cannot is paused (reason fee_unpaid) and its follower gets a notice, once per period.
   */
  async renewDue(now: Date = new Date()): Promise<{ paid: number; unpaid: number }> {
    const due = await this.ctx.db
      .select({ id: copySubscriptions.id })
      .from(copySubscriptions)
      .where(
        and(
          inArray(copySubscriptions.status, ['active', 'paused']),
          // Not while paused for an unpaid fee (the follower resumes) or by staff suspending the provider.
          or(isNull(copySubscriptions.stopReason), notInArray(copySubscriptions.stopReason, [FEE_UNPAID, 'provider_suspended'])),
          sql`${copySubscriptions.subFee} > 0`,
          or(isNull(copySubscriptions.paidUntil), lte(copySubscriptions.paidUntil, now)),
        ),
      )
      .orderBy(copySubscriptions.id);
    let paid = 0;
    let unpaid = 0;
    for (const { id } of due) {
      const result = await this.chargeIfDue(id, now);
      if (result === 'paid') paid++;
      if (result === 'unpaid') {
        unpaid++;
        await this.pauseUnpaid(id, now);
      }
    }
    return { paid, unpaid };
  }

  /** Pauses a subscription whose period is unpaid and tells its follower (once per period). */
  private async pauseUnpaid(subscriptionId: number, now: Date): Promise<void> {
    const [sub] = await this.ctx.db
      .update(copySubscriptions)
      .set({ status: 'paused', stopReason: FEE_UNPAID })
      .where(and(eq(copySubscriptions.id, subscriptionId), inArray(copySubscriptions.status, ['active', 'paused'])))
      .returning();
    if (!sub) return;
    const [row] = await this.ctx.db
      .insert(copySubFees)
      .values({ subscriptionId, followerId: sub.followerId, period: sub.feePeriods + 1, fee: sub.subFee, status: 'unpaid', unpaidAt: now })
      .onConflictDoNothing()
      .returning();
    this.ctx.log.info({ subscriptionId, period: sub.feePeriods + 1 }, 'copy subscription fee unpaid: paused');
    if (row) this.ctx.services.trading.accountNotices.publish(sub.followerId, unpaidNotice(row));
  }

  /** The follower's unpaid-fee notices, newest first (the notification list's source). */
  async notices(userId: number, limit: number) {
    const where = and(eq(copySubFees.followerId, userId), isNotNull(copySubFees.unpaidAt));
    const [rows, [counted]] = await Promise.all([
      this.ctx.db.select().from(copySubFees).where(where).orderBy(desc(copySubFees.unpaidAt), desc(copySubFees.id)).limit(limit),
      this.ctx.db.select({ n: count() }).from(copySubFees).where(where),
    ]);
    return { rows: rows.map(unpaidNotice), total: Number(counted?.n ?? 0) };
  }
}

const unpaidNotice = (row: typeof copySubFees.$inferSelect) =>
  accountNotice('copy_fee_unpaid', row.unpaidAt ?? row.createdAt, { amount: row.fee, currency: 'USD' });
