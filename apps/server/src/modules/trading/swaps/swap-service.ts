import { swapOf } from '@tp/contract/formulas';
import { type Dec, moneyStr } from '@tp/contract/decimal';
import type { AppContext } from '../../../context.ts';
import type { Tx } from '../../../platform/db/client.ts';
import type { OrderChange } from '../settlement/order-ops.ts';
import type { OrderRow } from '../db/repository.ts';
import { latestCountingRollover, latestRollover, type Rollover, rolloversDue } from './rollover.ts';
import { Settlement, type Wallet } from '../settlement/settlement.ts';
import { addSwap, openPosition, passRollover, positionsDue } from './swap-repository.ts';

/** Positions read per query while charging a rollover. */
const BATCH = 500;

/**
 * Swaps at the daily rollover: each open position gets one ledger transaction per rollover date
 * (user cash against the house swaps account), guarded twice so that it happens once whatever
 * runs it again: the order's swap date moves on in the same transaction, and the ledger key
 * swap:{order}:{date} is unique. A position owes every rollover since the last one charged (or since
 * it opened), so rollovers missed while no leader ran are charged when one runs again, each with
 * its own days (the triple day), and a close settles what is owed up to the close. The amount is
 * computed on the contract size stored with the position at its open, so a later staff edit of the
 * symbol's contract size never rescales it. The swap goes to the balance, so floating profit never counts it.
 */
export class SwapService {
  /** The instant rollovers are due by (tests move it). */
  clock: () => number = () => Date.now();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private readonly settlement: Settlement;

  constructor(
    private readonly ctx: AppContext,
    private readonly publish: (changes: OrderChange[]) => void,
  ) {
    this.settlement = new Settlement(ctx);
  }

  /** On the leader: at once (rollovers missed while no server ran are charged now), then every `everyMs`. */
  start(everyMs = 30_000): void {
    void this.runNow();
    this.timer = setInterval(() => void this.runNow(), everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private runNow(): Promise<number> {
    this.running ??= this.charge().finally(() => (this.running = null));
    return this.running.catch((err: unknown) => {
      this.ctx.log.error({ err }, 'swap rollover failed; the next run retries');
      return 0;
    });
  }

  /** Charges every rollover due at `now` to every open position; answers how many positions were charged. */
  async charge(now = this.clock()): Promise<number> {
    const { market } = this.ctx.services;
    const groups = new Map<string, { rollover: Rollover; symbolIds: number[] }>();
    const withoutSwaps: number[] = [];
    for (const s of market.symbols()) {
      const r = latestCountingRollover(s, now);
      if (!r) withoutSwaps.push(s.id);
      else if (groups.has(r.date)) groups.get(r.date)!.symbolIds.push(s.id);
      else groups.set(r.date, { rollover: r, symbolIds: [s.id] });
    }
    if (withoutSwaps.length) await passRollover(this.ctx.db, withoutSwaps, latestRollover(now));
    if (!groups.size) return 0;
    let charged = 0;
    for (let afterId = 0; ;) {
      const due = await positionsDue(this.ctx.db, [...groups.values()], afterId, BATCH);
      for (const p of due) {
        try {
          if (await this.chargeOne(p, now)) charged++;
        } catch (err) {
          // E.g. no quote yet to convert the swap to USD: this position waits for the next run.
          this.ctx.log.warn({ err, orderId: p.id, swapDate: p.swapDate }, 'swap not charged yet');
        }
      }
      if (due.length < BATCH) return charged;
      afterId = due.at(-1)!.id;
    }
  }

  private async chargeOne(p: OrderRow, now: number): Promise<boolean> {
    const { market, ledger } = this.ctx.services;
    const symbol = market.symbol(p.symbolId);
    if (!symbol || !rolloversDue(symbol, p, now).length) return false;
    const quoteToUsd = market.quoteToUsd(p.symbolId);
    const done = await ledger.withLockedUser(p.userId, async (tx, before) => {
      const w: Wallet = { userId: p.userId, isDemo: p.isDemo, cash: before.balance, locked: before.lockBalance };
      const order = await this.settleDue(tx, w, p, quoteToUsd, now);
      return order === p ? null : { order, w };
    });
    if (!done) return false;
    // The engine's copy of the position shows the new swap, and its account is reviewed with the new balance.
    this.publish([
      { type: 'sync', orderId: p.id, order: done.order },
      { type: 'balances', userId: p.userId, isDemo: p.isDemo, cash: done.w.cash, locked: done.w.locked },
    ]);
    return true;
  }

  /**
   * Charges an open position every rollover it owes at `now`, inside the caller's transaction (which
   * holds the user's lock), one ledger transaction per rollover date, and answers the row as it
   * then is; the same `order` when nothing was owed (or it is no longer open). A close calls it
   * first, so a position closed after a rollover the job has not charged yet still pays it.
   */
  async settleDue(tx: Tx, w: Wallet, order: OrderRow, quoteToUsd: Dec, now = this.clock()): Promise<OrderRow> {
    const own = this.ctx.services.market.symbol(order.symbolId);
    if (!own || !rolloversDue(own, order, now).length) return order;
    // The swap rates of the user's account group (swap-free, or its own long and short rates) at the rollover.
    const groups = this.ctx.services.trading.settings.groups;
    await groups.ensureUsers(tx, [order.userId]);
    const symbol = groups.symbolFor(groups.groupIdOf(order.userId, order.isDemo), own);
    // What is owed is decided on the row as it is under the lock, not on a copy read before it.
    let row = await openPosition(tx, order.id);
    if (!row) return order;
    let changed = false;
    const terms = { ...symbol, contractSize: row.contractSize };
    for (const { rollover, days } of rolloversDue(symbol, row, now)) {
      const amount = swapOf(terms, row.orderType, row.quantity, row.price ?? 0, days, quoteToUsd);
      const charged = await addSwap(tx, row.id, moneyStr(amount), rollover.date);
      if (!charged) break;
      const memo = `${symbol.code} #${row.id} ${rollover.date}${days > 1 ? ` x${days}` : ''}`;
      // A swap-free account passes the rollover with nothing to post.
      if (!symbol.swapFree) await this.settlement.swap(tx, w, row.id, rollover.date, amount, memo);
      row = charged;
      changed = true;
    }
    return changed ? row : order;
  }
}
