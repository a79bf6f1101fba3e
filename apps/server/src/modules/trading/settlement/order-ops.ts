import { AsyncLocalStorage } from 'node:async_hooks';
import { type Dec, dec, moneyStr } from '@tp/contract/decimal';
import { type CancelReason, ClosedType, OrderStatus } from '@tp/contract/constants';
import { closePriceFor, profitOf } from '@tp/contract/formulas';
import type { AppContext } from '../../../context.ts';
import { fail } from '../../../http/errors.ts';
import { type PreparedCall, type Tx, statementsSent } from '../../../platform/db/client.ts';
import { GroupCommit, Permits } from '../engine/group-commit.ts';
import { HOUSE_SHARDS } from '../../ledger/index.ts';
import type { MarketService } from '../../market/index.ts';
import {
  type OrderRow,
  closeStatement,
  liveOrdersOf,
  lockOrder,
  markCancelled,
  orderFromRaw,
  nextOrderId,
  type OrdersCondition,
  ordersWhere,
  splitOrder,
} from '../db/repository.ts';

/** `total` shared like `part` of `whole` lots: the part's share and the rest. */
export function share(total: string, part: Dec, whole: Dec): { part: string; rest: string } {
  const p = moneyStr(dec(total).times(part).div(whole));
  return { part: p, rest: moneyStr(dec(total).minus(p)) };
}
import { type Wallet, type Settlement, memoOf } from './settlement.ts';
import type { TradingSettings } from '../admission/settings.ts';
import { markupOfRow } from '../views/order-view.ts';

/** What a committed transaction changed, for the engine's books and the pushes. */
export type OrderChange =
  | { type: 'opened'; order: OrderRow }
  | { type: 'pending'; order: OrderRow }
  | { type: 'stops'; order: OrderRow }
  /** Closed or cancelled orders of one user: removed from the books and pushed as FOREX_CLOSED. */
  | { type: 'closed'; userId: number; orders: OrderRow[] }
  /** The order as the database has it (a trigger that did not act): the books follow it. */
  | { type: 'sync'; orderId: number; order: OrderRow | undefined }
  | { type: 'balances'; userId: number; isDemo: boolean; cash: Dec; locked: Dec }
  /** A user's balances moved outside the trading transactions (withdrawal, staff adjustment, deposit, swap): review under the lock. */
  | { type: 'review'; userId: number; isDemo: boolean };

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A trader's call waiting for its group. */
interface UserBatch {
  userId: number;
  isDemo: boolean;
  fn: UserTxFn<unknown>;
  opts: { read?: OrdersCondition; lock?: boolean; newOrder?: boolean; rank: number };
  /** The request's deadline, checked when the call's turn comes in its group. */
  deadline: number | undefined;
  outcome?: Outcome;
}

/** Traders' calls in one group at most. */
const USER_GROUP_MAX = 16;

export interface Prices {
  bid: string;
  ask: string;
}

export type UserTxFn<T> = (tx: Tx, wallet: Wallet, changes: OrderChange[], read: OrderRow[], nextOrderId?: number) => Promise<T>;

/** The transactional steps shared by user calls and the engine. */
/**
 * The deadline (epoch ms) of the trader's request being served, if any: a money transaction that
 * starts after it is refused, so a request held up by a frozen server or a slow database is never
 * executed late while the trader was already told it failed (or gave up).
 */
const requestDeadline = new AsyncLocalStorage<number>();

/** Runs `fn` with every money transaction it starts bound to `deadline`. */
export function withDeadline<T>(deadline: number, fn: () => Promise<T>): Promise<T> {
  return requestDeadline.run(deadline, fn);
}

export class OrderOps {
  /** The transactions of forUser, with the users whose balances their postings moved. */
  private readonly own = new WeakMap<Tx, { userIds: Set<number> }>();

  /** Traders' orders and closes arriving together, written in shared transactions (PostgreSQL only). */
  private readonly grouped: GroupCommit<UserBatch> | null;

  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
    private readonly settlement: Settlement,
    private readonly notify: (changes: OrderChange[]) => void,
  ) {
    // PGlite runs one transaction at a time: grouping would only make its queue longer.
    const lanes = Math.max(2, Math.floor(ctx.config.DATABASE_POOL_SIZE / 4));
    this.grouped =
      ctx.dbKind === 'postgres'
        ? new GroupCommit<UserBatch>({
            runGroup: (batches) => this.runGroup(batches),
            runOne: (batch) => this.runOne(batch),
            // Lanes split the house's shards: two groups running side by side never wait on the same house row.
            laneOf: (batch) => batch.userId % HOUSE_SHARDS,
            lanes,
            maxGroup: USER_GROUP_MAX,
            permits: new Permits(lanes),
            onGroupFailed: (err, size) => {
              this.ctx.metrics.groupFailed('orders');
              this.ctx.log.warn({ err, users: size }, 'orders: group commit failed; writing each alone');
            },
            onCommitted: (size) => this.ctx.metrics.groupCommitted('orders', size),
          })
        : null;
  }

  get market(): MarketService {
    return this.ctx.services.market;
  }

  memo(order: OrderRow): string {
    return this.memoFor(order.symbolId, order.id);
  }

  memoFor(symbolId: number, orderId: number): string {
    return memoOf(this.market.symbol(symbolId)?.showCode ?? String(symbolId), orderId);
  }

  /**
   * One money transaction of one user: their ledger rows are locked first, so the user's
   * transactions run one after the other; the changes are applied to the books after the commit.
   * `read` (an OrdersCondition) is read under the lock, in the same round trip as the lock,
   * and its orders handed to `fn` (with `lock`, its rows are locked too: closes settle them as read); `reportBalances` pushes the balances even when no order changed.
   * With `newOrder`, the id of the order the transaction will insert is taken in that round trip
   * too, so the insert can travel with its posting (an id taken and not used leaves a gap).
   */
  async forUser<T>(
    userId: number,
    isDemo: boolean,
    fn: UserTxFn<T>,
    opts: { reportBalances?: boolean; read?: OrdersCondition; lock?: boolean; newOrder?: boolean } = {},
  ): Promise<T> {
    const { reportBalances = false, read, lock = false, newOrder = false } = opts;
    const changes: OrderChange[] = [];
    let wallet: Wallet | undefined;
    const moved = { userIds: new Set<number>() };
    const result = await this.ctx.services.ledger.withLockedUser(
      userId,
      async (tx, b, reads) => {
        const deadline = requestDeadline.getStore();
        if (deadline !== undefined && Date.now() > deadline) throw fail('trading.request_expired');
        const w: Wallet = { userId, isDemo, cash: b.balance, locked: b.lockBalance };
        wallet = w;
        this.own.set(tx, moved);
        const rows = read === undefined ? [] : reads[0]!;
        const next = newOrder ? Number(reads.at(-1)![0]!.id) : undefined;
        const out = await fn(tx, w, changes, rows.map(orderFromRaw), next);
        await this.protectNegativeBalance(tx, w, changes);
        return out;
      },
      [...(read === undefined ? [] : [ordersWhere(read, lock)]), ...(newOrder ? [nextOrderId()] : [])],
    );
    if ((changes.length || reportBalances || moved.userIds.size) && wallet) {
      changes.push({ type: 'balances', userId, isDemo, cash: wallet.cash, locked: wallet.locked });
      this.notify(changes);
    }
    return result;
  }

  /**
   * forUser, written together with other traders' calls that arrive at the same time (group
   * commit): one transaction and one commit for the group, each call still all or nothing for its
   * trader (a call refused before it sent anything is refused alone; any other failure fails the
   * group, and each call is then made alone). `rank` orders the calls of one house shard inside a
   * group (opens before closes), so groups take the shard's house rows in one order.
   */
  async forUserGrouped<T>(
    userId: number,
    isDemo: boolean,
    fn: UserTxFn<T>,
    opts: { read?: OrdersCondition; lock?: boolean; newOrder?: boolean; rank: number },
  ): Promise<T> {
    if (!this.grouped) return this.forUser(userId, isDemo, fn, opts);
    const batch: UserBatch = { userId, isDemo, fn, opts, deadline: requestDeadline.getStore() };
    await this.grouped.submit(batch);
    const outcome = batch.outcome!;
    if (!outcome.ok) throw outcome.error;
    return outcome.value as T;
  }

  private async runOne(batch: UserBatch): Promise<void> {
    const run = () => this.forUser(batch.userId, batch.isDemo, batch.fn, batch.opts);
    const value = await (batch.deadline === undefined ? run() : requestDeadline.run(batch.deadline, run));
    batch.outcome = { ok: true, value };
  }

  /** A group's calls: one of each trader's together (a trader's second call reads what the first wrote: it goes alone after). */
  private async runGroup(batches: UserBatch[]): Promise<void> {
    const ordered = [...batches].sort(
      (a, b) => (a.userId % HOUSE_SHARDS) - (b.userId % HOUSE_SHARDS) || a.opts.rank - b.opts.rank || a.userId - b.userId,
    );
    const users = new Set<number>();
    const together: UserBatch[] = [];
    const after: UserBatch[] = [];
    for (const b of ordered) {
      (users.has(b.userId) ? after : together).push(b);
      users.add(b.userId);
    }
    if (together.length > 1) await this.writeTogether(together);
    else after.unshift(...together);
    for (const b of after) {
      try {
        await this.runOne(b);
      } catch (error) {
        b.outcome = { ok: false, error };
      }
    }
  }

  private async writeTogether(batches: UserBatch[]): Promise<void> {
    const reads: PreparedCall[] = [];
    for (const b of batches) {
      if (b.opts.read !== undefined) reads.push(ordersWhere(b.opts.read, b.opts.lock ?? false));
      if (b.opts.newOrder) reads.push(nextOrderId());
    }
    const moved = { userIds: new Set<number>() };
    const done: { w: Wallet; changes: OrderChange[] }[] = [];
    const outcomes = new Map<UserBatch, Outcome>();
    await this.ctx.services.ledger.withLockedUsers(
      batches.map((b) => b.userId),
      async (tx, balances, rows) => {
        this.own.set(tx, moved);
        let next = 0;
        for (const b of batches) {
          const read = b.opts.read === undefined ? [] : rows[next++]!;
          const orderId = b.opts.newOrder ? Number(rows[next++]![0]!.id) : undefined;
          if (b.deadline !== undefined && Date.now() > b.deadline) {
            outcomes.set(b, { ok: false, error: fail('trading.request_expired') });
            continue;
          }
          const balance = balances.get(b.userId)!;
          const w: Wallet = { userId: b.userId, isDemo: b.isDemo, cash: balance.balance, locked: balance.lockBalance };
          const changes: OrderChange[] = [];
          const sent = statementsSent(tx);
          try {
            const value = await b.fn(tx, w, changes, read.map(orderFromRaw), orderId);
            await this.protectNegativeBalance(tx, w, changes);
            outcomes.set(b, { ok: true, value });
            done.push({ w, changes });
          } catch (error) {
            // Refused before it sent anything (the checks of an order, a position already gone):
            // refused alone. Anything it wrote would stay in the group's transaction: the group fails.
            if (sent === undefined || statementsSent(tx) !== sent) throw error;
            outcomes.set(b, { ok: false, error });
          }
        }
      },
      reads,
    );
    for (const [b, outcome] of outcomes) b.outcome = outcome;
    for (const { w, changes } of done) {
      if (!changes.length && !moved.userIds.has(w.userId)) continue;
      changes.push({ type: 'balances', userId: w.userId, isDemo: w.isDemo, cash: w.cash, locked: w.locked });
      this.notify(changes);
    }
  }

  /**
   * Several users' money transactions in one database transaction and one commit (group commit),
   * each user's `fn` run as forUser runs it, on that user's own wallet. All users' accounts are
   * locked first, in one statement; the users then go in the order of their house shard, so the
   * shared house rows are taken in one order by every group. All or nothing: should any user's
   * step fail, nothing of the group is written and the caller retries each user alone.
   */
  async forUsers(users: { userId: number; isDemo: boolean; fn: UserTxFn<unknown> }[]): Promise<void> {
    const ordered = [...users].sort((a, b) => (a.userId % HOUSE_SHARDS) - (b.userId % HOUSE_SHARDS) || a.userId - b.userId);
    const moved = { userIds: new Set<number>() };
    const done: { w: Wallet; changes: OrderChange[] }[] = [];
    await this.ctx.services.ledger.withLockedUsers(
      ordered.map((u) => u.userId),
      async (tx, balances) => {
        this.own.set(tx, moved);
        for (const { userId, isDemo, fn } of ordered) {
          const b = balances.get(userId)!;
          const w: Wallet = { userId, isDemo, cash: b.balance, locked: b.lockBalance };
          const changes: OrderChange[] = [];
          await fn(tx, w, changes, []);
          await this.protectNegativeBalance(tx, w, changes);
          done.push({ w, changes });
        }
      },
    );
    for (const { w, changes } of done) {
      if (!changes.length && !moved.userIds.has(w.userId)) continue;
      changes.push({ type: 'balances', userId: w.userId, isDemo: w.isDemo, cash: w.cash, locked: w.locked });
      this.notify(changes);
    }
  }

  /**
   * Called by the ledger for every posting that moved a user's balances: true when it happened
   * inside one of these transactions, which reports the balances itself after its commit.
   */
  claims(tx: Tx, userId: number): boolean {
    const moved = this.own.get(tx);
    moved?.userIds.add(userId);
    return moved !== undefined;
  }

  /** Changes made outside a money transaction (take-profit and stop-loss edits). */
  notifyStops(order: OrderRow): void {
    this.notify([{ type: 'stops', order }]);
  }

  /**
   * The one settlement of a close: the position as it is inside this transaction, at `prices` (the
   * close side of them). The update is guarded by the version the caller read; should the row have
   * changed since (a partial close, a stop edit, a swap), it is read again, locked, and what is left
   * of it is settled, if `still` (e.g. "the take-profit is still crossed") holds for it. Null when it
   * is no longer open, or `still` no longer holds. `locked`: the caller read the row locked in this
   * transaction (or wrote it there), so the guarded update cannot miss and travels with the posting.
   */
  async close(
    tx: Tx,
    w: Wallet,
    order: OrderRow,
    prices: Prices,
    quoteToUsd: Dec,
    closedType: number,
    opts: { still?: (row: OrderRow) => boolean; locked?: boolean } = {},
  ): Promise<OrderRow | null> {
    const { still } = opts;
    let row: OrderRow | undefined = order;
    // The second try reads the row locked: nothing can change it before its update.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (attempt) row = await lockOrder(tx, order.id);
      if (!row || row.status !== OrderStatus.OPEN || (still && !still(row))) return null;
      // Rollovers passed since the last swap charged (the job may not have run yet) are paid with the close.
      row = await this.ctx.services.trading.swaps.settleDue(tx, w, row, quoteToUsd);
      const closePrice = closePriceFor(row.orderType, prices.bid, prices.ask, markupOfRow(row));
      const profit = moneyStr(profitOf(row.orderType, dec(row.price ?? 0), closePrice, row.quantity, row.contractSize, quoteToUsd));
      const set = { closePrice: closePrice.toString(), profit, closedType };
      // The guarded update travels with the posting. A row not locked here may have moved on since
      // it was read: then neither is written, and the row is read again under its lock.
      const locked = Boolean(opts.locked || attempt);
      const lead = { ...closeStatement(row.id, row.version, set), mayMiss: !locked };
      const closed = await this.settlement.close(
        tx,
        w,
        { id: row.id, margin: row.margin, profit, closeFee: row.closeFee },
        this.memo(row),
        lead,
      );
      if (closed) return orderFromRaw(closed);
    }
    throw new Error(`orders: position ${order.id} changed under its lock`);
  }

  /**
   * Closes `lots` of an open position (fewer than it holds) at `prices`: brought up to date with the
   * rollovers owed, it is split into the part (closed here, through the one close) and the rest (kept
   * under its id with its take-profit and stop-loss), sharing margin, fee and swap like the lots. The
   * closed part and the kept rest; null when the position is no longer open.
   */
  async closePart(
    tx: Tx,
    w: Wallet,
    row: OrderRow,
    lots: Dec,
    prices: Prices,
    quoteToUsd: Dec,
    closedType: number,
  ): Promise<{ closed: OrderRow; kept: OrderRow } | null> {
    const whole = dec(row.quantity);
    const rest = whole.minus(lots);
    // Both parts share the swap so far like margin and fee: the closed part shows the swap of its lots.
    const current = await this.ctx.services.trading.swaps.settleDue(tx, w, row, quoteToUsd);
    const margin = share(current.margin, lots, whole);
    const fee = share(current.fee, lots, whole);
    const closeFee = share(current.closeFee, lots, whole);
    const swap = share(current.swap, lots, whole);
    const split = await splitOrder(
      tx,
      current,
      { quantity: rest.toString(), margin: margin.rest, fee: fee.rest, closeFee: closeFee.rest, swap: swap.rest },
      { quantity: lots.toString(), margin: margin.part, fee: fee.part, closeFee: closeFee.part, swap: swap.part },
    );
    if (!split) return null;
    // The part was written in this transaction: nobody else sees it before the commit.
    const closed = await this.close(tx, w, split.part, prices, quoteToUsd, closedType, { locked: true });
    return closed ? { closed, kept: split.kept } : null;
  }

  /** Cancels a pending order and refunds its reservation; null when it was no longer pending. */
  async cancel(tx: Tx, w: Wallet, order: OrderRow, reason: CancelReason, closedType: number | null = null): Promise<OrderRow | null> {
    const cancelled = await markCancelled(tx, order.id, reason, closedType);
    if (!cancelled) return null;
    await this.settlement.release(tx, w, cancelled, this.memo(cancelled));
    return cancelled;
  }

  /** Closes at the symbol's current quote; null when it has no quote or its market is closed. */
  async closeAtMarket(tx: Tx, w: Wallet, order: OrderRow, closedType: number, anyHours = false): Promise<OrderRow | null> {
    const quote = this.market.quote(order.symbolId);
    if (!quote || (!anyHours && !this.market.isOpen(order.symbolId))) return null;
    return this.close(tx, w, order, quote, this.market.quoteToUsd(order.symbolId), closedType);
  }

  /**
   * Negative balance protection: once no position is open any more and the cash is below zero,
   * pending reservations go back to the cash and the house writes off what is still missing.
   * Never while margin is locked in an open position (the client's equity may still be positive).
   */
  private async protectNegativeBalance(tx: Tx, w: Wallet, changes: OrderChange[]): Promise<void> {
    if (!w.cash.isNegative() || !this.settings.accountTerms(w.userId, w.isDemo).negativeBalanceProtection) return;
    const live = w.locked.isZero() ? [] : await liveOrdersOf(tx, w.userId);
    if (live.some((o) => o.status === OrderStatus.OPEN)) return;
    const cancelled: OrderRow[] = [];
    for (const order of live) {
      const done = await this.cancel(tx, w, order, 'stop_out', ClosedType.STOP_OUT);
      if (done) cancelled.push(done);
    }
    if (cancelled.length) changes.push({ type: 'closed', userId: w.userId, orders: cancelled });
    if (w.cash.isNegative()) await this.settlement.writeOff(tx, w);
  }
}
