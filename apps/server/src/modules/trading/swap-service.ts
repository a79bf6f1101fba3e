import { swapOf } from '@tp/contract/formulas';
import { moneyStr } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import type { OrderChange } from './order-ops.ts';
import { latestRollover, type Rollover, rolloverDays } from './rollover.ts';
import { addSwap, positionsDue, type SwapDue } from './swap-repository.ts';

/** Positions read per query while charging a rollover. */
const BATCH = 500;

/**
 * Swaps at the daily rollover: each open position gets one ledger transaction per rollover date
 * (user cash against the house swaps account), guarded twice so that it happens once whatever
 * runs it again: the order's swap date moves on in the same transaction, and the ledger key
 * swap:{order}:{date} is unique. The swap goes to the balance, so floating profit never counts it.
 */
export class SwapService {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly publish: (changes: OrderChange[]) => void,
  ) {}

  /** On the leader: at once (a rollover missed while no server ran is charged now), then every `everyMs`. */
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

  /** Charges the latest rollover at or before `now` to every position due; answers how many were charged. */
  async charge(now = Date.now()): Promise<number> {
    const rollover = latestRollover(now);
    const { market } = this.ctx.services;
    const symbolIds = market
      .symbols()
      .filter((s) => rolloverDays(s, rollover.weekday) > 0)
      .map((s) => s.id);
    if (!symbolIds.length) return 0;
    let charged = 0;
    for (let afterId = 0; ;) {
      const due = await positionsDue(this.ctx.db, symbolIds, rollover, afterId, BATCH);
      for (const p of due) {
        try {
          if (await this.chargeOne(p, rollover)) charged++;
        } catch (err) {
          // E.g. no quote yet to convert the swap to USD: this position waits for the next run.
          this.ctx.log.warn({ err, orderId: p.id, rollover: rollover.date }, 'swap not charged yet');
        }
      }
      if (due.length < BATCH) return charged;
      afterId = due.at(-1)!.id;
    }
  }

  private async chargeOne(p: SwapDue, rollover: Rollover): Promise<boolean> {
    const { market, ledger } = this.ctx.services;
    const symbol = market.symbol(p.symbolId);
    if (!symbol) return false;
    const days = rolloverDays(symbol, rollover.weekday);
    const amount = swapOf(symbol, p.orderType, p.quantity, p.price ?? 0, days, market.quoteToUsd(p.symbolId));
    const memo = `${symbol.code} #${p.id} ${rollover.date}${days > 1 ? ` x${days}` : ''}`;
    const done = await ledger.withLockedUser(p.userId, async (tx, before) => {
      const order = await addSwap(tx, p.id, moneyStr(amount), rollover.date);
      if (!order) return null;
      await ledger.post(tx, {
        kind: 'swap',
        isDemo: p.isDemo,
        refType: 'order',
        refId: p.id,
        idemKey: `swap:${p.id}:${rollover.date}`,
        duplicateIsError: true,
        // MT5's balance model: a charge may take the balance below zero while equity stays positive.
        allowNegativeCash: true,
        postings: [
          { account: { userId: p.userId, kind: 'cash' }, amount, type: 'swap', memo },
          { account: { house: 'swaps' }, amount: amount.neg(), type: 'swap', memo },
        ],
      });
      return { order, cash: before.balance.plus(amount), locked: before.lockBalance };
    });
    if (!done) return false;
    // The engine's copy of the position shows the new swap, and its account is reviewed with the new balance.
    this.publish([
      { type: 'sync', orderId: p.id, order: done.order },
      { type: 'balances', userId: p.userId, isDemo: p.isDemo, cash: done.cash, locked: done.locked },
    ]);
    return true;
  }
}
