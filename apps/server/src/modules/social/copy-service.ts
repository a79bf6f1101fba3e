import { dec, moneyStr, ZERO } from '@tp/contract/decimal';
import type { AdminCopyProvider, ProviderSummary, Subscription } from '@tp/contract/schemas/social';
import { and, count, desc, eq, inArray, isNull, sql, sum } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../../context.ts';
import { fail, invalid, notFound } from '../../http/errors.ts';
import { InsufficientFundsError } from '../ledger/index.ts';
import { rankableUsers, userContacts } from '../auth/index.ts';
import { settings } from '../../platform/db/platform-schema.ts';
import { closedOrdersOfUser } from '../trading/index.ts';
import { Copier, type SubscriptionRow } from './copier.ts';
import { rankingName } from './mask.ts';
import { copyFees, copyLinks, copyProviders, copySubFees, copySubscriptions } from './schema.ts';
import { FEE_UNPAID, SubscriptionFees } from './sub-fees.ts';

const LIVE = ['active', 'paused'];
const MIN_TRADES_KEY = 'copy_provider_min_trades';
type AdminCopyProviders = { data: AdminCopyProvider[]; total: number; min_trades: number };
/** Live subscriptions one follower may hold. */
export const MAX_FOLLOWING = 20;
const providerNotFound = () => notFound('follow.provider_not_found');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Copy trading's calls: providers opt in, followers subscribe, pause and unfollow; the performance fee. */
export class CopyService {
  readonly copier: Copier;
  readonly subFees: SubscriptionFees;
  private feeTimer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: AppContext) {
    this.copier = new Copier(ctx);
    this.subFees = new SubscriptionFees(ctx);
  }

  async provider(userId: number) {
    const [row] = await this.ctx.db.select().from(copyProviders).where(eq(copyProviders.userId, userId)).limit(1);
    return row;
  }

  /** Followers (active or paused) per provider. */
  async followerCounts(providerIds?: number[]): Promise<Map<number, number>> {
    const rows = await this.ctx.db
      .select({ providerId: copySubscriptions.providerId, n: count() })
      .from(copySubscriptions)
      .where(
        providerIds
          ? and(inArray(copySubscriptions.status, LIVE), inArray(copySubscriptions.providerId, providerIds.length ? providerIds : [0]))
          : inArray(copySubscriptions.status, LIVE),
      )
      .groupBy(copySubscriptions.providerId);
    return new Map(rows.map((r) => [r.providerId, Number(r.n)]));
  }

  /** Enabled providers among these users. */
  async enabledProviders(userIds: number[]): Promise<Map<number, string>> {
    if (!userIds.length) return new Map();
    const rows = await this.ctx.db
      .select()
      .from(copyProviders)
      .where(and(inArray(copyProviders.userId, userIds), eq(copyProviders.enabled, true), isNull(copyProviders.suspendedAt)));
    return new Map(rows.map((r) => [r.userId, r.feePct]));
  }

  async enable(user: AuthUser, input: { fee_pct?: string; sub_fee?: string; enabled?: boolean }): Promise<ProviderSummary> {
    const enabled = input.enabled ?? true;
    if (enabled) {
      const min = await this.minTrades();
      if (min > 0 && (await closedOrdersOfUser(this.ctx.db, user.id, min)).length < min) throw fail('follow.track_record', { min });
    }
    const set: Partial<typeof copyProviders.$inferInsert> = { enabled };
    if (input.fee_pct !== undefined) set.feePct = input.fee_pct;
    // A new subscription fee applies to new subscriptions; a follower keeps the fee they agreed to.
    if (input.sub_fee !== undefined) set.subFee = input.sub_fee;
    await this.ctx.db
      .insert(copyProviders)
      .values({ userId: user.id, enabled, feePct: input.fee_pct ?? '0', subFee: input.sub_fee ?? '0' })
      .onConflictDoUpdate({ target: copyProviders.userId, set });
    if (!enabled) {
      // Followers stop copying; their copies stay open as their own.
      const subs = await this.ctx.db
        .select()
        .from(copySubscriptions)
        .where(and(eq(copySubscriptions.providerId, user.id), inArray(copySubscriptions.status, LIVE)));
      for (const sub of subs) await this.underLease(sub.id, (s) => this.copier.stopSubscription(s, 'provider_disabled', false));
    }
    return (await this.providerSummary(user.id))!;
  }

  /** Staff's minimum track record: closed trades needed to opt in (setting copy_provider_min_trades; none on a fresh install). */
  async minTrades(): Promise<number> {
    const [row] = await this.ctx.db.select({ value: settings.value }).from(settings).where(eq(settings.key, MIN_TRADES_KEY)).limit(1);
    return row && /^\d+$/.test(row.value.trim()) ? Number(row.value.trim()) : 0;
  }

  async setMinTrades(min: number): Promise<{ min_trades: number }> {
    await this.ctx.db
      .insert(settings)
      .values({ key: MIN_TRADES_KEY, value: String(min) })
      .onConflictDoUpdate({ target: settings.key, set: { value: String(min) } });
    return { min_trades: await this.minTrades() };
  }

  /** The back office's providers, newest first, with their followers, assets copied, fees and earnings. */
  async adminProviders(page: { page: number; limit: number }): Promise<AdminCopyProviders> {
    const [rows, [counted], min] = await Promise.all([
      this.ctx.db
        .select()
        .from(copyProviders)
        .orderBy(desc(copyProviders.createdAt), desc(copyProviders.userId))
        .limit(page.limit)
        .offset((page.page - 1) * page.limit),
      this.ctx.db.select({ n: count() }).from(copyProviders),
      this.minTrades(),
    ]);
    const ids = rows.map((r) => r.userId);
    const data = ids.length ? await this.adminRows(rows) : [];
    return { data, total: Number(counted?.n ?? 0), min_trades: min };
  }

  private async adminRows(rows: (typeof copyProviders.$inferSelect)[]): Promise<AdminCopyProvider[]> {
    const ids = rows.map((r) => r.userId);
    const [live, perf, subs, people] = await Promise.all([
      this.ctx.db
        .select({ id: copySubscriptions.providerId, n: count(), assets: sum(copySubscriptions.startEquity) })
        .from(copySubscriptions)
        .where(and(inArray(copySubscriptions.providerId, ids), inArray(copySubscriptions.status, LIVE)))
        .groupBy(copySubscriptions.providerId),
      this.ctx.db
        .select({ id: copySubscriptions.providerId, total: sum(copyFees.fee) })
        .from(copyFees)
        .innerJoin(copySubscriptions, eq(copySubscriptions.id, copyFees.subscriptionId))
        .where(inArray(copySubscriptions.providerId, ids))
        .groupBy(copySubscriptions.providerId),
      this.ctx.db
        .select({ id: copySubscriptions.providerId, total: sum(copySubFees.fee) })
        .from(copySubFees)
        .innerJoin(copySubscriptions, eq(copySubscriptions.id, copySubFees.subscriptionId))
        .where(and(inArray(copySubscriptions.providerId, ids), eq(copySubFees.status, 'paid')))
        .groupBy(copySubscriptions.providerId),
      userContacts(this.ctx.db, ids),
    ]);
    const liveOf = new Map(live.map((r) => [r.id, r]));
    const perfOf = new Map(perf.map((r) => [r.id, r.total]));
    const subOf = new Map(subs.map((r) => [r.id, r.total]));
    return rows.map((p) => ({
      provider_id: p.userId,
      uid: people.get(p.userId)?.uid ?? '',
      email: people.get(p.userId)?.email ?? null,
      enabled: p.enabled,
      suspended: p.suspendedAt !== null,
      suspended_at: p.suspendedAt?.toISOString() ?? null,
      followers: Number(liveOf.get(p.userId)?.n ?? 0),
      assets_copied: moneyStr(liveOf.get(p.userId)?.assets ?? 0),
      fee_pct: dec(p.feePct).toFixed(2),
      sub_fee: dec(p.subFee).toFixed(2),
      fees_earned: moneyStr(perfOf.get(p.userId) ?? 0),
      sub_fees_earned: moneyStr(subOf.get(p.userId) ?? 0),
      created_at: p.createdAt.toISOString(),
    }));
  }

  /**
   * Staff suspend (or resume) a provider. Suspended: nobody may subscribe, and their followers' active
   * subscriptions are paused (provider_suspended; the copies already open still follow the provider's
   * closes, and no subscription fee renews); resumed: those subscriptions are active again.
   */
  async setSuspended(providerId: number, suspended: boolean): Promise<AdminCopyProvider> {
    const [row] = await this.ctx.db
      .update(copyProviders)
      .set({ suspendedAt: suspended ? sql`coalesce(${copyProviders.suspendedAt}, now())` : null })
      .where(eq(copyProviders.userId, providerId))
      .returning();
    if (!row) throw providerNotFound();
    const subs = await this.ctx.db
      .select()
      .from(copySubscriptions)
      .where(
        and(
          eq(copySubscriptions.providerId, providerId),
          suspended
            ? eq(copySubscriptions.status, 'active')
            : and(eq(copySubscriptions.status, 'paused'), eq(copySubscriptions.stopReason, 'provider_suspended')),
        ),
      );
    for (const sub of subs) {
      await this.underLease(sub.id, async (s) => {
        await this.ctx.db
          .update(copySubscriptions)
          .set(suspended ? { status: 'paused', stopReason: 'provider_suspended' } : { status: 'active', stopReason: null })
          .where(
            and(
              eq(copySubscriptions.id, s.id),
              suspended ? eq(copySubscriptions.status, 'active') : eq(copySubscriptions.stopReason, 'provider_suspended'),
            ),
          );
      });
    }
    if (!suspended) void this.copier.kick();
    const [out] = await this.adminRows([row]);
    return out!;
  }

  async providerSummary(userId: number): Promise<ProviderSummary | null> {
    const p = await this.provider(userId);
    if (!p) return null;
    // The same figures the back office shows, without who the provider is.
    const [row] = await this.adminRows([p]);
    return {
      provider_id: userId,
      enabled: p.enabled,
      fee_pct: row!.fee_pct,
      followers: row!.followers,
      follower_assets: row!.assets_copied,
      fees_earned: row!.fees_earned,
      sub_fee: row!.sub_fee,
      sub_fees_earned: row!.sub_fees_earned,
      suspended: row!.suspended,
    };
  }

  /** Runs `fn` holding the subscription's lease, waiting (a little) for a copier run that holds it. */
  private async underLease(id: number, fn: (sub: SubscriptionRow) => Promise<void>): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (await this.copier.withLease(id, fn)) return;
      await sleep(50);
    }
    throw fail('follow.busy');
  }

  private async ownSubscription(followerId: number, providerId: number): Promise<SubscriptionRow> {
    const [sub] = await this.ctx.db
      .select()
      .from(copySubscriptions)
      .where(and(eq(copySubscriptions.followerId, followerId), eq(copySubscriptions.providerId, providerId)))
      .limit(1);
    if (!sub) throw notFound('follow.not_following');
    return sub;
  }

  /**
   * The subscription fee a new (or restarted) subscription agrees to: the provider's now, which the
   * follower must have confirmed (accept_sub_fee) when it is not zero.
   */
  private agreedFee(provider: typeof copyProviders.$inferSelect, accepted: string | undefined): string {
    const fee = dec(provider.subFee);
    if (fee.isZero()) return '0';
    if (accepted === undefined) throw fail('follow.sub_fee_confirm', { fee: fee.toFixed(2) });
    if (!dec(accepted).eq(fee)) throw fail('follow.sub_fee_changed', { fee: fee.toFixed(2) });
    return moneyStr(fee);
  }

  /** Charges a subscription's due fee; refused (nothing charged, nothing copied) when the follower cannot pay. */
  private async payOrRefuse(subscriptionId: number): Promise<void> {
    if ((await this.subFees.chargeIfDue(subscriptionId)) === 'unpaid') throw fail('follow.sub_fee_unpaid');
  }

  async subscribe(
    user: AuthUser,
    input: { provider_id: number; amount?: string; ratio?: string; copy_stop_loss?: string; max_lot?: string; accept_sub_fee?: string },
  ): Promise<Subscription> {
    if (input.provider_id === user.id) throw invalid('follow.self');
    const provider = await this.provider(input.provider_id);
    if (!provider?.enabled || provider.suspendedAt) throw providerNotFound();
    if ((input.amount === undefined) === (input.ratio === undefined)) throw invalid('follow.amount_or_ratio');
    const mode = input.amount !== undefined ? 'amount' : 'ratio';
    const value = (input.amount ?? input.ratio)!;
    if (dec(value).lte(0)) throw invalid('follow.amount_or_ratio');
    const figures = await this.ctx.services.trading.accountFigures(user.id);
    if (mode === 'amount' && dec(value).gt(figures.equity)) throw invalid('follow.amount_above_equity');
    const startEquity = moneyStr(mode === 'amount' ? value : figures.equity);
    const terms = {
      mode,
      value,
      copyStopLossPct: input.copy_stop_loss ?? null,
      maxLot: input.max_lot ?? null,
    };
    const existing = await this.ctx.db
      .select()
      .from(copySubscriptions)
      .where(and(eq(copySubscriptions.followerId, user.id), eq(copySubscriptions.providerId, input.provider_id)))
      .limit(1);
    if (!existing[0]) {
      const [live] = await this.ctx.db
        .select({ n: count() })
        .from(copySubscriptions)
        .where(and(eq(copySubscriptions.followerId, user.id), inArray(copySubscriptions.status, LIVE)));
      if (Number(live?.n ?? 0) >= MAX_FOLLOWING) throw fail('follow.too_many', { max: MAX_FOLLOWING });
      const subFee = this.agreedFee(provider, input.accept_sub_fee);
      const paying = dec(subFee).gt(0);
      // With a fee, nothing is copied before the first period is paid: paused (fee_pending) until then.
      const [created] = await this.ctx.db
        .insert(copySubscriptions)
        .values({
          followerId: user.id,
          providerId: input.provider_id,
          ...terms,
          subFee,
          status: paying ? 'paused' : 'active',
          stopReason: paying ? 'fee_pending' : null,
          startEquity,
          startedAt: new Date(),
        })
        .onConflictDoNothing()
        .returning();
      if (created && paying) {
        if ((await this.subFees.chargeIfDue(created.id)) === 'unpaid') {
          await this.ctx.db
            .update(copySubscriptions)
            .set({ status: 'stopped', stopReason: FEE_UNPAID, stoppedAt: new Date() })
            .where(eq(copySubscriptions.id, created.id));
          throw fail('follow.sub_fee_unpaid');
        }
        await this.ctx.db
          .update(copySubscriptions)
          .set({ status: 'active', stopReason: null, startedAt: new Date() })
          .where(and(eq(copySubscriptions.id, created.id), eq(copySubscriptions.status, 'paused')));
      }
    } else {
      await this.underLease(existing[0].id, async (sub) => {
        // Live: new terms from now on. Stopped: a new start (positions the provider holds now are not copied).
        const restart = sub.status === 'stopped';
        if (restart) {
          // A restart agrees to the provider's fee now and pays its period (not again within one already paid).
          await this.ctx.db
            .update(copySubscriptions)
            .set({ subFee: this.agreedFee(provider, input.accept_sub_fee) })
            .where(eq(copySubscriptions.id, sub.id));
          await this.payOrRefuse(sub.id);
        }
        await this.ctx.db
          .update(copySubscriptions)
          .set({
            ...terms,
            ...(restart ? { status: 'active', startEquity, startedAt: new Date(), stopReason: null, stoppedAt: null } : {}),
          })
          .where(eq(copySubscriptions.id, sub.id));
      });
    }
    void this.copier.kick();
    return this.view(await this.ownSubscription(user.id, input.provider_id));
  }

  async unsubscribe(user: AuthUser, input: { provider_id: number; close_positions?: boolean }): Promise<Subscription> {
    const sub = await this.ownSubscription(user.id, input.provider_id);
    if (sub.status !== 'stopped')
      await this.underLease(sub.id, (s) => this.copier.stopSubscription(s, 'unfollowed', input.close_positions ?? false));
    return this.view(await this.ownSubscription(user.id, input.provider_id));
  }

  async pause(user: AuthUser, input: { provider_id: number; paused: boolean }): Promise<Subscription> {
    const sub = await this.ownSubscription(user.id, input.provider_id);
    if (sub.status === 'stopped') throw fail('follow.not_following');
    await this.underLease(sub.id, async (s) => {
      if (!input.paused) {
        if (s.stopReason === 'provider_suspended') throw fail('follow.provider_suspended');
        // Paused for an unpaid fee (or its period ended): resuming pays the period first.
        if (dec(s.subFee).gt(0)) await this.payOrRefuse(s.id);
      }
      await this.ctx.db
        .update(copySubscriptions)
        .set(input.paused ? { status: 'paused' } : { status: 'active', stopReason: null })
        .where(and(eq(copySubscriptions.id, s.id), inArray(copySubscriptions.status, LIVE)));
    });
    if (!input.paused) void this.copier.kick();
    return this.view(await this.ownSubscription(user.id, input.provider_id));
  }

  async mine(user: AuthUser) {
    const subs = await this.ctx.db
      .select()
      .from(copySubscriptions)
      .where(eq(copySubscriptions.followerId, user.id))
      .orderBy(desc(copySubscriptions.startedAt));
    const following: Subscription[] = [];
    for (const sub of subs) following.push(await this.view(sub));
    return { following, provider: await this.providerSummary(user.id) };
  }

  async isFollowing(followerId: number, providerId: number): Promise<boolean> {
    const [row] = await this.ctx.db
      .select({ id: copySubscriptions.id })
      .from(copySubscriptions)
      .where(
        and(
          eq(copySubscriptions.followerId, followerId),
          eq(copySubscriptions.providerId, providerId),
          inArray(copySubscriptions.status, LIVE),
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  async view(sub: SubscriptionRow): Promise<Subscription> {
    const [links, provider, people, { equity, realised }, [fees], [subFees]] = await Promise.all([
      this.ctx.db.select().from(copyLinks).where(eq(copyLinks.subscriptionId, sub.id)).orderBy(desc(copyLinks.id)).limit(100),
      this.provider(sub.providerId),
      rankableUsers(this.ctx.db, [sub.providerId]),
      this.copier.copyEquity(sub),
      this.ctx.db
        .select({ total: sum(copyFees.fee) })
        .from(copyFees)
        .where(eq(copyFees.subscriptionId, sub.id)),
      this.ctx.db
        .select({ total: sum(copySubFees.fee) })
        .from(copySubFees)
        .where(and(eq(copySubFees.subscriptionId, sub.id), eq(copySubFees.status, 'paid'))),
    ]);
    const who = people.get(sub.providerId);
    return {
      provider_id: sub.providerId,
      provider: who ? rankingName(who) : `#${sub.providerId}`,
      mode: sub.mode as 'amount' | 'ratio',
      value: dec(sub.value).toString(),
      copy_stop_loss: sub.copyStopLossPct === null ? null : dec(sub.copyStopLossPct).toFixed(2),
      max_lot: sub.maxLot === null ? null : dec(sub.maxLot).toString(),
      status: sub.status as 'active' | 'paused' | 'stopped',
      stop_reason: sub.stopReason,
      fee_pct: dec(provider?.feePct ?? 0).toFixed(2),
      start_equity: moneyStr(sub.startEquity),
      copy_equity: moneyStr(equity),
      realised: moneyStr(realised),
      high_water_mark: moneyStr(sub.hwm),
      fees_paid: moneyStr(fees?.total ?? 0),
      sub_fee: dec(sub.subFee).toFixed(2),
      sub_fees_paid: moneyStr(subFees?.total ?? 0),
      paid_until: sub.paidUntil?.toISOString() ?? null,
      started_at: sub.startedAt.toISOString(),
      copies: links.map((l) => ({
        provider_order_id: l.providerOrderId,
        follower_order_id: l.followerOrderId,
        lots: dec(l.followerLots).toString(),
        state: l.state as 'open' | 'closed' | 'detached' | 'skipped',
        reason: l.state === 'skipped' || l.state === 'detached' ? l.reason : null,
        created_at: l.createdAt.toISOString(),
      })),
    };
  }

  /**
   * The performance fee of a period: for each subscription of a provider with a fee, the copy's
   * realised profit above its high-water mark pays fee_pct of it, follower to provider, through the
   * ledger; the high-water mark rises to that profit. Once per subscription and period: the fee row
   * (unique), the posting (idempotency key) and the new mark commit together.
   */
  async settleFees(period: string): Promise<{ charged: number; total: string }> {
    const subs = await this.ctx.db
      .select({ sub: copySubscriptions, feePct: copyProviders.feePct })
      .from(copySubscriptions)
      .innerJoin(copyProviders, eq(copyProviders.userId, copySubscriptions.providerId))
      .where(sql`${copyProviders.feePct} > 0`)
      .orderBy(copySubscriptions.id);
    let charged = 0;
    let total = ZERO;
    const ledger = this.ctx.services.ledger;
    for (const { sub, feePct } of subs) {
      // Realised over every start of this follower's copy of this provider: the mark is never reset.
      const { realisedAll: realised } = await this.copier.copyEquity(sub);
      if (realised.lte(sub.hwm)) continue;
      try {
        const fee = await ledger.withLockedUsers([sub.followerId, sub.providerId], async (tx, balances) => {
          const [current] = await tx.select().from(copySubscriptions).where(eq(copySubscriptions.id, sub.id)).for('update');
          if (!current || realised.lte(current.hwm)) return ZERO;
          const [claimed] = await tx
            .insert(copyFees)
            .values({ subscriptionId: sub.id, period, profit: moneyStr(realised), hwmBefore: current.hwm, fee: '0' })
            .onConflictDoNothing()
            .returning({ id: copyFees.id });
          if (!claimed) return ZERO;
          const owed = dec(moneyStr(realised.minus(current.hwm).mul(feePct).div(100)));
          // Never more than the follower's cash: the fee is not a debt.
          const cash = balances.get(sub.followerId)?.balance ?? ZERO;
          const fee = dec(moneyStr(owed.gt(cash) ? (cash.gt(0) ? cash : ZERO) : owed));
          await tx
            .update(copyFees)
            .set({ fee: moneyStr(fee) })
            .where(eq(copyFees.id, claimed.id));
          await tx
            .update(copySubscriptions)
            .set({ hwm: moneyStr(realised) })
            .where(eq(copySubscriptions.id, sub.id));
          if (fee.gt(0))
            await ledger.post(tx, {
              kind: 'copy_fee',
              isDemo: false,
              refType: 'copy_subscription',
              refId: sub.id,
              idemKey: `copy_fee:${sub.id}:${period}`,
              duplicateIsError: true,
              postings: [
                { account: { userId: sub.followerId, kind: 'cash' }, amount: fee.neg(), type: 'copy_fee', memo: `#${sub.providerId}` },
                { account: { userId: sub.providerId, kind: 'cash' }, amount: fee, type: 'copy_fee_income', memo: `#${sub.id}` },
              ],
            });
          return fee;
        });
        if (fee.gt(0)) {
          charged++;
          total = total.plus(fee);
        }
      } catch (err) {
        if (!(err instanceof InsufficientFundsError)) throw err;
        this.ctx.log.warn({ subscriptionId: sub.id }, 'copy fee not charged: insufficient funds');
      }
    }
    return { charged, total: moneyStr(total) };
  }

  /** The leader's daily settlement (period: the UTC date) and the subscription fees' renewal, checked every ten minutes. */
  startFees(): void {
    if (this.feeTimer) return;
    const run = () => {
      void this.settleFees(new Date().toISOString().slice(0, 10)).catch((err: unknown) =>
        this.ctx.log.error({ err }, 'copy fee settlement failed'),
      );
      void this.subFees.renewDue().catch((err: unknown) => this.ctx.log.error({ err }, 'copy subscription fee renewal failed'));
    };
    this.feeTimer = setInterval(run, 10 * 60_000);
    this.feeTimer.unref();
  }

  stopFees(): void {
    if (this.feeTimer) clearInterval(this.feeTimer);
    this.feeTimer = null;
  }
}
