import { ClosedType, OrderStatus, OrderType } from '@tp/contract/constants';
import { D, type Dec, dec, moneyStr } from '@tp/contract/decimal';
import { closePriceFor, openPriceFor } from '@tp/contract/formulas';
import type { AppContext } from '../../../context.ts';
import { Admission, Refusal, heldLots } from '../admission/admission.ts';
import { closeFeeOf, groupFeeOf, groupMarginOf } from '../admission/groups.ts';
import { type Figures, atOrBelow, figuresOf, floatingOf } from './figures.ts';
import type { OrderOps, Prices, UserTxFn } from '../settlement/order-ops.ts';
import { markupOfRow, termsOf } from '../views/order-view.ts';
import { type OrderRow, findOrder, markOpened, openPositionsCondition, orderAndOpenPositionsCondition } from '../db/repository.ts';
import type { Settlement } from '../settlement/settlement.ts';
import type { TradingSettings } from '../admission/settings.ts';
import { TriggerKind } from './trigger-book.ts';

interface JobBase {
  userId: number;
  isDemo: boolean;
  /** performance.now() of the tick that triggered the job. */
  triggeredAt: number;
}
export interface CloseJob extends JobBase, Prices {
  kind: 'close';
  orderId: number;
  /** The open position as the books had it at the tick: settled only if the database still holds this version of it. */
  order: OrderRow;
  trigger: typeof TriggerKind.TAKE_PROFIT | typeof TriggerKind.STOP_LOSS;
}
export interface FillJob extends JobBase, Prices {
  kind: 'fill';
  orderId: number;
}
export interface RiskJob extends JobBase {
  kind: 'risk';
}
export type EngineJob = CloseJob | FillJob | RiskJob;

/** A take-profit or stop-loss is crossed when the close side of the tick reaches its stored level. */
export function stopCrossed(order: OrderRow, prices: Prices, trigger: number): boolean {
  const level = trigger === TriggerKind.TAKE_PROFIT ? order.takeProfit : order.stopLoss;
  if (level == null || dec(level).isZero()) return false;
  const close = closePriceFor(order.orderType, prices.bid, prices.ask, markupOfRow(order));
  const rising = (order.orderType === OrderType.BUY) === (trigger === TriggerKind.TAKE_PROFIT);
  return rising ? close.gte(level) : close.lte(level);
}

/** A pending order fills when the open side of the tick reaches its target: limits on the way down for buys, stops on the way up. */
export function fillCrossed(order: OrderRow, prices: Prices): boolean {
  if (order.originPrice == null) return false;
  const open = openPriceFor(order.orderType, prices.bid, prices.ask, markupOfRow(order));
  const limit = order.pendingKind === 'limit';
  const falling = (order.orderType === OrderType.BUY) === limit;
  return falling ? open.lte(order.originPrice) : open.gte(order.originPrice);
}

/** What the engine's triggers do, each in one transaction of the user (DB checks decide, memory only proposes). */
export class TriggerExecutor {
  private readonly admission: Admission;

  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
    private readonly settlement: Settlement,
    private readonly ops: OrderOps,
  ) {
    this.admission = new Admission(ctx, settings);
  }

  private get market() {
    return this.ctx.services.market;
  }

  /** `actedAt` hears the risk rate a stop-out acted at, inside its transaction, after its closes. */
  run(job: EngineJob, actedAt?: (riskRate: string) => void): Promise<void> {
    if (job.kind === 'close') return this.closeAll([job]);
    if (job.kind === 'fill') return this.fill(job);
    return this.stopOut(job, actedAt);
  }

  /**
   * Take-profits and stop-losses of one user, crossed together: closed at their triggering ticks'
   * prices in one transaction. Each close is first tried on the books' copy of the row, guarded by
   * its version: the update succeeds only while the row in the database is still that version, i.e.
   * exactly the terms settled (every update of an order raises its version). Should it have changed
   * (a partial close, an edit, a swap, a close in between), the row is read again locked and closed
   * only if its level, as stored now, is still crossed by its tick. This saves the read in the
   * lock's round trip on the engine's busiest path.
   */
  closeAll(jobs: CloseJob[]): Promise<void> {
    const { userId, isDemo } = jobs[0]!;
    return this.ops.forUser(userId, isDemo, this.closing(jobs));
  }

  /**
   * Several users' crossed take-profits and stop-losses (one batch per user, as closeAll takes
   * them) in one transaction and one commit; each settled exactly as closeAll settles it. Should
   * the group fail, nothing of it is written and the caller runs each batch alone.
   */
  closeGroup(batches: CloseJob[][]): Promise<void> {
    return this.ops.forUsers(batches.map((jobs) => ({ userId: jobs[0]!.userId, isDemo: jobs[0]!.isDemo, fn: this.closing(jobs) })));
  }

  private closing(jobs: CloseJob[]): UserTxFn<void> {
    const { userId } = jobs[0]!;
    return async (tx, w, changes) => {
      const done: OrderRow[] = [];
      for (const job of jobs) {
        const closed = await this.ops.close(
          tx,
          w,
          job.order,
          job,
          this.market.quoteToUsd(job.order.symbolId),
          job.trigger === TriggerKind.TAKE_PROFIT ? ClosedType.TAKE_PROFIT : ClosedType.STOP_LOSS,
          { still: (now) => stopCrossed(now, job, job.trigger) },
        );
        if (closed) done.push(closed);
        else changes.push({ type: 'sync', orderId: job.orderId, order: await findOrder(tx, job.orderId) });
      }
      if (!done.length) return;
      changes.push({ type: 'closed', userId, orders: done });
    };
  }

  /**
   * A pending order at the tick's price, admitted again as of now like a new order (symbol, current
   * limits, caps, margin at the fill price): refused, it is cancelled with the reason, or waits
   * for a later tick while the refusal passes by itself (a quote not live, a jump held).
   */
  private fill(job: FillJob): Promise<void> {
    return this.ops.forUser(
      job.userId,
      job.isDemo,
      async (tx, w, changes, read) => {
        const row = read.find((o) => o.id === job.orderId);
        const sym = row && this.market.symbol(row.symbolId);
        if (!row || !sym || row.status !== OrderStatus.PENDING || !fillCrossed(row, job)) {
          changes.push({ type: 'sync', orderId: job.orderId, order: row });
          return;
        }
        const fillPrice = openPriceFor(row.orderType, job.bid, job.ask, markupOfRow(row));
        const positions = read.filter((o) => o.id !== row.id && o.status === OrderStatus.OPEN).map(termsOf);
        let margin: Dec;
        let fee: Dec;
        let closeFee: Dec;
        // The account's group as the engine knows it now (a move reaches it through the change log).
        const terms = this.settings.accountTerms(job.userId, job.isDemo);
        try {
          // The symbol first: its conversion pair must be live before the margin can be converted.
          const { sym: grouped } = this.admission.symbolNow(row.symbolId, terms.groupId);
          const terms0 = { ...grouped, contractSize: dec(row.contractSize) };
          const quoteToUsd = this.market.quoteToUsd(row.symbolId);
          const lots = dec(row.quantity);
          margin = groupMarginOf(terms0, lots, fillPrice, row.leverage, quoteToUsd, heldLots(positions, row.symbolId));
          fee = groupFeeOf(terms0, this.settings.tradeFeeType, lots, margin, fillPrice, quoteToUsd);
          closeFee = closeFeeOf(terms0, fee);
          this.admission.admit(
            { cash: w.cash, locked: w.locked, positions, released: dec(row.margin).plus(row.fee), terms },
            {
              symbolId: row.symbolId,
              orderType: row.orderType,
              lots,
              leverage: row.leverage,
              contractSize: dec(row.contractSize),
              margin,
              fee,
            },
          );
        } catch (e) {
          if (!(e instanceof Refusal)) throw e;
          const cancelled = e.cancel ? await this.ops.cancel(tx, w, row, e.cancel) : null;
          changes.push(
            cancelled ? { type: 'closed', userId: job.userId, orders: [cancelled] } : { type: 'sync', orderId: row.id, order: row },
          );
          return;
        }
        const filled = await markOpened(tx, row.id, {
          price: fillPrice.toString(),
          closePrice: fillPrice.toString(),
          margin: moneyStr(margin),
          fee: moneyStr(fee),
          closeFee: moneyStr(closeFee),
        });
        if (!filled) return void changes.push({ type: 'sync', orderId: row.id, order: row });
        await this.settlement.fill(tx, w, row, filled, this.ops.memo(filled));
        changes.push({ type: 'opened', order: filled });
      },
      // The pending order and the open positions, read under the lock in the lock's round trip.
      { read: orderAndOpenPositionsCondition(job.userId, job.orderId) },
    );
  }

  /**
   * The lots of `order` whose close brings the margin level above `level` (the equity stays, the
   * margin falls with the lots): rounded up to the symbol's step, at least its minimum; null when
   * that is the whole position or leaves less than the minimum open (then it closes whole).
   */
  private partialLots(order: OrderRow, figures: Figures, level: Dec): Dec | null {
    const sym = this.market.symbol(order.symbolId);
    const whole = dec(order.quantity);
    const margin = dec(order.margin);
    if (!sym || margin.isZero() || level.isZero()) return null;
    const target = figures.equity.mul(100).div(level);
    let lots = whole.mul(figures.openMargin.minus(target)).div(margin);
    const step = sym.step.isZero() ? new D(10).pow(-6) : sym.step;
    lots = lots.div(step).ceil().mul(step);
    if (lots.lt(sym.minLots)) lots = sym.minLots;
    if (lots.gte(whole) || whole.minus(lots).lt(sym.minLots)) return null;
    return lots;
  }

  /**
   * Stop-out, on the margin level only, by the account's group's policy: the largest loss first (the
   * house's default), the largest margin first, or partially (the part of the largest loss that restores
   * the level), one position at a time (the level looked at again
   * after each), until the risk rate is above the group's stop-out level or no position is left whose
   * symbol is tradable now. Its risk event is not written here but handed to `actedAt`, which writes it
   * once the transaction has committed (one round trip less while the account is below the level).
   */
  private stopOut(job: RiskJob, actedAt: (riskRate: string) => void = () => undefined): Promise<void> {
    const terms = this.settings.accountTerms(job.userId, job.isDemo);
    const level = terms.stopOutLevel;
    return this.ops.forUser(
      job.userId,
      job.isDemo,
      async (tx, w, changes, positions) => {
        let open = positions;
        let figures = figuresOf(w.cash, w.locked, open.map(termsOf), this.market);
        if (!atOrBelow(figures, level)) return;
        const riskRate = figures.riskRate!.toString();
        const done: OrderRow[] = [];
        const kept = new Map<number, OrderRow>();
        while (atOrBelow(figures, level)) {
          const closable = open
            .filter((o) => this.market.quote(o.symbolId) && this.market.isOpen(o.symbolId))
            .map((o) => ({ o, profit: floatingOf(termsOf(o), this.market).profit, margin: dec(o.margin) }))
            .sort((a, b) =>
              terms.stopOutPolicy === 'largest_margin'
                ? b.margin.comparedTo(a.margin) || a.o.id - b.o.id
                : a.profit.comparedTo(b.profit) || a.o.id - b.o.id,
            );
          const worst = closable[0]?.o;
          if (!worst) break;
          // Partial: only the lots that bring the level back above the stop-out level (the position's rest stays open).
          const part = terms.stopOutPolicy === 'partial' ? this.partialLots(worst, figures, level) : null;
          if (part) {
            const split = await this.ops.closePart(
              tx,
              w,
              worst,
              part,
              this.market.quote(worst.symbolId)!,
              this.market.quoteToUsd(worst.symbolId),
              ClosedType.STOP_OUT,
            );
            if (split) {
              done.push(split.closed);
              kept.set(worst.id, split.kept);
              open = open.map((o) => (o.id === worst.id ? split.kept : o));
            } else open = open.filter((o) => o.id !== worst.id);
          } else {
            const closed = await this.ops.closeAtMarket(tx, w, worst, ClosedType.STOP_OUT);
            if (closed) done.push(closed);
            kept.delete(worst.id);
            open = open.filter((o) => o.id !== worst.id);
          }
          figures = figuresOf(w.cash, w.locked, open.map(termsOf), this.market);
        }
        for (const [orderId, order] of kept) changes.push({ type: 'sync', orderId, order });
        changes.push({ type: 'closed', userId: job.userId, orders: done });
        actedAt(riskRate);
      },
      // Read under the user's lock but not row-locked: each close is guarded by the version read.
      { reportBalances: true, read: openPositionsCondition(job.userId) },
    );
  }
}
