import { randomUUID } from 'node:crypto';
import { ClosedType, type CopyClosedType, OrderStatus } from '@tp/contract/constants';
import { type Dec, dec, moneyStr, ZERO } from '@tp/contract/decimal';
import { closePriceFor, profitOf } from '@tp/contract/formulas';
import type { SubmitInput } from '@tp/contract/schemas/trading';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { userContacts } from '../auth/index.ts';
import type { MarketService } from '../market/index.ts';
import { markupOfRow, openPositionsOfUser, ordersWithIds, type OrderRow, usersWithOpenPositions } from '../trading/index.ts';
import { copyLinks, copySubscriptions } from './schema.ts';

export type SubscriptionRow = typeof copySubscriptions.$inferSelect;
export type LinkRow = typeof copyLinks.$inferSelect;

/** How long one copier run holds a subscription (another server's run waits until it ends or expires). */
const LEASE_MS = 15_000;
/** The fallback when no change was announced (a lost message, another server's commit). */
export const COPY_POLL_MS = 1_000;

/**
 * A follower acting through the trader's own order calls (never a session: the copier is the caller),
 * on their real account unless told otherwise (copy trading is for real accounts; see Copier.follower).
 */
export function actingAs(userId: number, isDemo = false): AuthUser {
  return { id: userId, uid: '', email: null, isDemo, sessionId: 0, expiresAt: new Date(Date.now() + 60_000) };
}

/** The client order id of a copy: the same provider position copies to the same follower order, whoever retries. */
export const copyClientId = (subscriptionId: number, providerOrderId: number) => `copy-${subscriptionId}-${providerOrderId}`;

const reasonOf = (err: unknown) => (err instanceof AppError ? err.key : 'follow.copy_failed');

/** Lots rounded down to the symbol's step (6 places when it has none). */
export function floorToStep(lots: Dec, step: Dec): Dec {
  if (step.isZero()) return lots.toDecimalPlaces(6, 1);
  return lots.div(step).floor().mul(step);
}

/**
 * Lots of a copy: ratio mode provider lots x ratio; amount mode provider lots x amount / the
 * provider's equity at copy time; at most max_lot; rounded down to the lot step. Null below the
 * symbol's minimum lot (the copy is skipped).
 */
export function copyLots(
  sub: Pick<SubscriptionRow, 'mode' | 'value' | 'maxLot'>,
  providerLots: Dec,
  providerEquity: Dec,
  sym: { step: Dec; minLots: Dec },
): Dec | null {
  let lots =
    sub.mode === 'ratio' ? providerLots.mul(sub.value) : providerEquity.gt(0) ? providerLots.mul(sub.value).div(providerEquity) : ZERO;
  if (sub.maxLot !== null && lots.gt(sub.maxLot)) lots = dec(sub.maxLot);
  lots = floorToStep(lots, sym.step);
  return lots.lt(sym.minLots) || lots.lte(0) ? null : lots;
}

/** Result of a closed copy for its follower: profit less the fee, plus swaps. */
export const netOf = (o: Pick<OrderRow, 'profit' | 'fee' | 'swap'>) => dec(o.profit).minus(o.fee).plus(o.swap);

const sameLevel = (a: string | null, b: string | null) => (a === null || b === null ? a === b : dec(a).eq(b));
/** Whether a copy's take-profit or stop-loss differs from its provider position's. */
const stopsDiffer = (p: OrderRow, f: OrderRow) => !sameLevel(p.takeProfit, f.takeProfit) || !sameLevel(p.stopLoss, f.stopLoss);
/** The provider's levels a refused mirror was recorded under (not tried again until they change). */
const stopsKey = (p: OrderRow) => `stops:${p.takeProfit ?? '0'}/${p.stopLoss ?? '0'}`;
/** The copy equity at which the copy stop-loss stops the subscription. */
const stopFloor = (sub: SubscriptionRow) =>
  dec(sub.startEquity)
    .mul(dec(100).minus(sub.copyStopLossPct ?? 100))
    .div(100);

/**
 * The copy's equity: start equity + the realised net of copies closed since the start + the
 * floating profit (less fees, plus swaps) of the open ones; realisedAll counts every start (the fee's
 * high-water mark is never reset).
 */
export function equityOf(
  sub: SubscriptionRow,
  links: LinkRow[],
  byId: Map<number, OrderRow>,
  market: Pick<MarketService, 'quote' | 'quoteToUsd'>,
): { equity: Dec; realised: Dec; realisedAll: Dec; open: OrderRow[] } {
  let realised = ZERO;
  let realisedAll = ZERO;
  let floating = ZERO;
  const open: OrderRow[] = [];
  for (const l of links) {
    const o = l.followerOrderId ? byId.get(l.followerOrderId) : undefined;
    if (!o || o.userId !== sub.followerId) continue;
    if (o.status === OrderStatus.CLOSED) {
      realisedAll = realisedAll.plus(netOf(o));
      if (l.createdAt >= sub.startedAt) realised = realised.plus(netOf(o));
    } else if (o.status === OrderStatus.OPEN) {
      open.push(o);
      const quote = market.quote(o.symbolId);
      const now = quote ? closePriceFor(o.orderType, quote.bid, quote.ask, markupOfRow(o)) : dec(o.closePrice ?? o.price ?? 0);
      floating = floating
        .plus(profitOf(o.orderType, o.price ?? 0, now, o.quantity, o.contractSize, market.quoteToUsd(o.symbolId)))
        .minus(o.fee)
        .plus(o.swap);
    }
  }
  return { equity: dec(sub.startEquity).plus(realised).plus(floating), realised, realisedAll, open };
}

/**
 * Whether committed order changes may give the copier something to do: those of another server (users
 * unknown, null), any before the first run has read the subscriptions, and those of a provider or
 * follower of a live subscription.
 */
export function concernsCopies(userIds: readonly number[] | null, watched: ReadonlySet<number> | null): boolean {
  return userIds === null || watched === null || userIds.some((id) => watched.has(id));
}

/**
 * The copier. It does not replay events: for each live subscription it compares the follower's
 * copies with the provider's open positions now and makes the difference (opens what is missing,
 * closes or partly closes what the provider closed or shrank, mirrors take-profit and stop-loss),
 * through the trading module's own order calls, as the follower. A run holds a lease on the
 * subscription (one run at a time across servers); each copy has a unique link and a client order
 * id derived from it, so a run repeated, crashed or racing another opens nothing twice.
 */
export class Copier {
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /**
   * The providers and followers of the live subscriptions as the last run read them (null before the
   * first): an order change of anyone else committed here gives the copier nothing to do, so it does
   * not run (and read the subscriptions) for every order of the platform. A subscription made here
   * starts a run; one made on another server is copied there, and seen here at the next poll.
   */
  private watched: Set<number> | null = null;

  constructor(private readonly ctx: AppContext) {}

  start(): void {
    if (this.timer) return;
    this.unlisten = this.ctx.services.trading.onOrderChanges((userIds) => {
      if (concernsCopies(userIds, this.watched)) void this.kick();
    });
    this.timer = setInterval(() => this.kick(), COPY_POLL_MS);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unlisten?.();
    this.unlisten = null;
    await this.running;
  }

  /** Runs now, or once more after the run under way. */
  kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.runOnce();
        } while (this.again);
      } catch (err) {
        this.ctx.log.error({ err }, 'copy trading run failed');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /**
   * One pass over the live subscriptions with something to look at: an open copy (to mirror, or
   * for the copy stop-loss) or, when active, a provider holding an open position (to copy). A few
   * queries find them and read what they need, whatever their number; only a subscription with
   * something to do is then leased and reconciled, several followers side by side (PostgreSQL).
   */
  async runOnce(): Promise<void> {
    const live = await this.ctx.db
      .select()
      .from(copySubscriptions)
      .where(inArray(copySubscriptions.status, ['active', 'paused']))
      .orderBy(copySubscriptions.id);
    this.watched = new Set(live.flatMap((s) => [s.providerId, s.followerId]));
    if (!live.length) return;
    const [withCopies, holding] = await Promise.all([
      this.ctx.db
        .selectDistinct({ id: copyLinks.subscriptionId })
        .from(copyLinks)
        .where(eq(copyLinks.state, 'open'))
        .then((rows) => new Set(rows.map((r) => r.id))),
      usersWithOpenPositions(this.ctx.db, [...new Set(live.map((s) => s.providerId))]),
    ]);
    const subs = live.filter((s) => withCopies.has(s.id) || (s.status === 'active' && holding.has(s.providerId)));
    if (!subs.length) return;
    // What the subscriptions look at, read once: their links, the provider positions and the copies.
    const links = await this.ctx.db
      .select()
      .from(copyLinks)
      .where(
        inArray(
          copyLinks.subscriptionId,
          subs.map((s) => s.id),
        ),
      );
    const providerOpen = new Map<number, OrderRow[]>();
    for (const id of new Set(subs.map((s) => s.providerId))) {
      if (holding.has(id)) providerOpen.set(id, await openPositionsOfUser(this.ctx.db, id));
    }
    const orderIds = links.flatMap((l) => (l.followerOrderId ? [l.followerOrderId] : []));
    for (const l of links) if (l.state === 'open') orderIds.push(l.providerOrderId);
    const byId = new Map((await ordersWithIds(this.ctx.db, orderIds)).map((o) => [o.id, o]));
    const linksOf = new Map<number, LinkRow[]>();
    for (const l of links) linksOf.set(l.subscriptionId, [...(linksOf.get(l.subscriptionId) ?? []), l]);

    const due = subs.filter((s) => this.needsWork(s, providerOpen.get(s.providerId) ?? [], linksOf.get(s.id) ?? [], byId));
    // PGlite runs one transaction at a time; on PostgreSQL followers' orders go side by side (and share group commits).
    const lanes = this.ctx.dbKind === 'pglite' ? 1 : Math.max(2, Math.min(8, Math.floor(this.ctx.config.DATABASE_POOL_SIZE / 2)));
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const { id } = due[next++]!;
        try {
          await this.reconcile(id);
        } catch (err) {
          this.ctx.log.error({ err, subscriptionId: id }, 'copy trading: subscription not reconciled');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(lanes, due.length) }, worker));
  }

  /** Read-only: whether the subscription has anything to copy, mirror or stop now (then it is leased and reconciled). */
  private needsWork(sub: SubscriptionRow, providerOpen: OrderRow[], links: LinkRow[], byId: Map<number, OrderRow>): boolean {
    if (sub.status === 'active') {
      const linked = new Set(links.map((l) => l.providerOrderId));
      if (providerOpen.some((p) => !linked.has(p.id) && p.openedAt !== null && p.openedAt >= sub.startedAt)) return true;
    }
    for (const link of links) {
      if (link.state !== 'open') continue;
      const f = link.followerOrderId ? byId.get(link.followerOrderId) : undefined;
      const p = byId.get(link.providerOrderId);
      if (!f || f.status !== OrderStatus.OPEN || !p || p.status !== OrderStatus.OPEN) return true;
      if (dec(p.quantity).lt(link.providerLots) && dec(f.quantity).gt(dec(link.followerLots).mul(p.quantity).div(link.providerLots))) {
        return true;
      }
      if (stopsDiffer(p, f) && link.reason !== stopsKey(p)) return true;
    }
    if (sub.copyStopLossPct !== null) {
      const { equity } = equityOf(sub, links, byId, this.ctx.services.market);
      if (equity.lte(stopFloor(sub))) return true;
    }
    return false;
  }

  /**
   * The follower as the order calls take them: the account kind is the user's own (the calls refuse
   * demo users, but the copier never acts on a demo account's books as if it were real).
   */
  private async follower(sub: SubscriptionRow): Promise<AuthUser> {
    const contact = (await userContacts(this.ctx.db, [sub.followerId])).get(sub.followerId);
    return actingAs(sub.followerId, contact?.isDemo ?? false);
  }

  /** Takes the subscription's lease; null when another run holds it. */
  private async lease(id: number, owner: string): Promise<SubscriptionRow | null> {
    const [row] = await this.ctx.db
      .update(copySubscriptions)
      .set({ leaseUntil: sql`now() + ${`${LEASE_MS} milliseconds`}::interval`, leaseOwner: owner })
      .where(
        and(
          eq(copySubscriptions.id, id),
          or(isNull(copySubscriptions.leaseUntil), lt(copySubscriptions.leaseUntil, sql`now()`), eq(copySubscriptions.leaseOwner, owner)),
        ),
      )
      .returning();
    return row ?? null;
  }

  private async release(id: number, owner: string): Promise<void> {
    await this.ctx.db
      .update(copySubscriptions)
      .set({ leaseUntil: null, leaseOwner: null })
      .where(and(eq(copySubscriptions.id, id), eq(copySubscriptions.leaseOwner, owner)));
  }

  /** Runs `fn` holding the subscription's lease; false when another run holds it. */
  async withLease(id: number, fn: (sub: SubscriptionRow) => Promise<void>): Promise<boolean> {
    const owner = randomUUID();
    const sub = await this.lease(id, owner);
    if (!sub) return false;
    try {
      await fn(sub);
    } finally {
      await this.release(id, owner);
    }
    return true;
  }

  /** Brings one subscription's copies in line with the provider's open positions. */
  reconcile(id: number): Promise<boolean> {
    return this.withLease(id, async (sub) => {
      if (sub.status === 'stopped') return;
      const providerOpen = await openPositionsOfUser(this.ctx.db, sub.providerId);
      const links = await this.ctx.db.select().from(copyLinks).where(eq(copyLinks.subscriptionId, sub.id));
      await this.mirrorLinks(
        sub,
        links.filter((l) => l.state === 'open'),
      );
      if (sub.status === 'active') {
        const linked = new Set(links.map((l) => l.providerOrderId));
        const fresh = providerOpen.filter((p) => !linked.has(p.id) && p.openedAt !== null && p.openedAt >= sub.startedAt);
        if (fresh.length) await this.openCopies(sub, fresh);
      }
      if (sub.copyStopLossPct !== null) await this.checkCopyStop(sub);
    });
  }

  /** Opens the missing copies (or records why not). */
  private async openCopies(sub: SubscriptionRow, fresh: OrderRow[]): Promise<void> {
    const trading = this.ctx.services.trading;
    const market = this.ctx.services.market;
    const providerEquity = sub.mode === 'amount' ? (await trading.accountFigures(sub.providerId)).equity : ZERO;
    for (const p of fresh) {
      const sym = market.symbol(p.symbolId);
      const lots = sym ? copyLots(sub, dec(p.quantity), providerEquity, sym) : null;
      const record = (values: Partial<typeof copyLinks.$inferInsert>) =>
        this.ctx.db
          .insert(copyLinks)
          .values({
            subscriptionId: sub.id,
            providerOrderId: p.id,
            providerLots: p.quantity,
            followerLots: lots?.toString() ?? '0',
            state: 'skipped',
            ...values,
          })
          .onConflictDoNothing();
      if (!lots) {
        await record({ reason: 'follow.below_min_lot' });
        continue;
      }
      const input = {
        type: p.orderType as 1 | 2,
        cont: lots.toString(),
        forex_id: p.symbolId,
        status: 1,
        multiple: String(p.leverage),
        client_order_id: copyClientId(sub.id, p.id),
        target_profit_price: p.takeProfit ?? undefined,
        stop_loss_price: p.stopLoss ?? undefined,
        expire_type: 0,
      } as SubmitInput;
      try {
        const order = await trading.orders.submit(await this.follower(sub), input);
        await record({ followerOrderId: order.id, followerLots: order.quantity, state: 'open', reason: null });
      } catch (err) {
        await record({ reason: reasonOf(err) });
        this.ctx.log.info({ subscriptionId: sub.id, providerOrderId: p.id, reason: reasonOf(err) }, 'copy skipped');
      }
    }
  }

  /** Closes, partly closes and re-stops the open copies as their provider positions are now. */
  private async mirrorLinks(sub: SubscriptionRow, open: LinkRow[]): Promise<void> {
    if (!open.length) return;
    const trading = this.ctx.services.trading;
    const follower = await this.follower(sub);
    const ids = open.flatMap((l) => [l.providerOrderId, ...(l.followerOrderId ? [l.followerOrderId] : [])]);
    const byId = new Map((await ordersWithIds(this.ctx.db, ids)).map((o) => [o.id, o]));
    for (const link of open) {
      const f = link.followerOrderId ? byId.get(link.followerOrderId) : undefined;
      const p = byId.get(link.providerOrderId);
      const setState = (state: string, reason: string | null = link.reason) =>
        this.ctx.db.update(copyLinks).set({ state, reason, updatedAt: new Date() }).where(eq(copyLinks.id, link.id));
      if (!f || f.userId !== sub.followerId || f.status !== OrderStatus.OPEN) {
        // Closed by the follower, a trigger or a stop-out: nothing left to mirror.
        await setState('closed');
        continue;
      }
      try {
        if (!p || p.status !== OrderStatus.OPEN) {
          await trading.orders.closeByOwner(follower, f.id, ClosedType.COPY_PROVIDER);
          await setState('closed');
          continue;
        }
        const sym = this.ctx.services.market.symbol(f.symbolId);
        if (sym && dec(p.quantity).lt(link.providerLots)) {
          const desired = floorToStep(dec(link.followerLots).mul(p.quantity).div(link.providerLots), sym.step);
          const have = dec(f.quantity);
          if (have.gt(desired)) {
            const part = have.minus(desired);
            if (desired.lt(sym.minLots)) {
              await trading.orders.closeByOwner(follower, f.id, ClosedType.COPY_PROVIDER);
              await setState('closed');
              continue;
            }
            if (part.gte(sym.minLots)) await trading.positions.closePart(follower, f.id, part.toString(), ClosedType.COPY_PROVIDER);
          }
        }
        await this.mirrorStops(sub, link, p, f);
      } catch (err) {
        if (err instanceof AppError && err.key === 'trading.order_not_found') await setState('closed');
        else this.ctx.log.info({ subscriptionId: sub.id, linkId: link.id, reason: reasonOf(err) }, 'copy not mirrored yet');
      }
    }
  }

  private async mirrorStops(sub: SubscriptionRow, link: LinkRow, p: OrderRow, f: OrderRow): Promise<void> {
    if (!stopsDiffer(p, f)) return;
    const key = stopsKey(p);
    if (link.reason === key) return;
    try {
      await this.ctx.services.trading.orders.setStops(sub.followerId, f.id, p.takeProfit ?? '0', p.stopLoss ?? '0');
    } catch (err) {
      // Refused now (the follower's price already beyond it): not tried again until the provider changes them.
      await this.ctx.db.update(copyLinks).set({ reason: key, updatedAt: new Date() }).where(eq(copyLinks.id, link.id));
      this.ctx.log.info({ subscriptionId: sub.id, linkId: link.id, reason: reasonOf(err) }, 'copy stops not mirrored');
    }
  }

  /** The copy's equity now: start equity + realised net of closed copies (since the start) + floating profit of open ones. */
  async copyEquity(sub: SubscriptionRow): Promise<{ equity: Dec; realised: Dec; realisedAll: Dec; open: OrderRow[] }> {
    const links = await this.ctx.db
      .select()
      .from(copyLinks)
      .where(and(eq(copyLinks.subscriptionId, sub.id), sql`${copyLinks.followerOrderId} is not null`));
    const orders = await ordersWithIds(
      this.ctx.db,
      links.map((l) => l.followerOrderId!),
    );
    return equityOf(sub, links, new Map(orders.map((o) => [o.id, o])), this.ctx.services.market);
  }

  /** Copy stop-loss: the copy's equity fell by the chosen percent: stop copying and close the copies. */
  private async checkCopyStop(sub: SubscriptionRow): Promise<void> {
    const { equity } = await this.copyEquity(sub);
    const floor = stopFloor(sub);
    if (equity.gt(floor)) return;
    this.ctx.log.info({ subscriptionId: sub.id, equity: moneyStr(equity), floor: moneyStr(floor) }, 'copy stop-loss reached');
    await this.stopSubscription(sub, 'copy_stop_loss', true);
  }

  /**
   * Stops a subscription; with `close`, its open copies are closed now (closed_type 8 at the copy
   * stop-loss, 9 otherwise), otherwise they stay as the follower's own.
   */
  async stopSubscription(sub: SubscriptionRow, reason: string, close: boolean): Promise<void> {
    const closedType: CopyClosedType = reason === 'copy_stop_loss' ? ClosedType.COPY_STOP_LOSS : ClosedType.COPY_UNFOLLOW;
    await this.ctx.db
      .update(copySubscriptions)
      .set({ status: 'stopped', stopReason: reason, stoppedAt: new Date() })
      .where(eq(copySubscriptions.id, sub.id));
    const links = await this.ctx.db
      .select()
      .from(copyLinks)
      .where(and(eq(copyLinks.subscriptionId, sub.id), eq(copyLinks.state, 'open')));
    for (const link of links) {
      if (close && link.followerOrderId) {
        try {
          await this.ctx.services.trading.orders.closeByOwner(await this.follower(sub), link.followerOrderId, closedType);
        } catch (err) {
          if (!(err instanceof AppError && err.key === 'trading.order_not_found')) {
            // Still open (a market closed): left open as the follower's own; they see it in their orders.
            this.ctx.log.warn({ subscriptionId: sub.id, linkId: link.id, reason: reasonOf(err) }, 'copy not closed at stop');
            await this.ctx.db
              .update(copyLinks)
              .set({ state: 'detached', reason: reasonOf(err), updatedAt: new Date() })
              .where(eq(copyLinks.id, link.id));
            continue;
          }
        }
      }
      await this.ctx.db
        .update(copyLinks)
        .set({ state: close ? 'closed' : 'detached', updatedAt: new Date() })
        .where(eq(copyLinks.id, link.id));
    }
  }
}
