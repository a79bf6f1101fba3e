import { D, fixed } from '@tp/contract/decimal';
import { OrderStatus, OrderType } from '@tp/contract/constants';
import { type Markup, closePriceFor } from '@tp/contract/formulas';
import type { AppContext } from '../../../context.ts';
import type { Tick } from '../../market/index.ts';
import type { OrderOps } from '../settlement/order-ops.ts';
import { markupOfRow } from '../views/order-view.ts';
import { type OrderRow, findOrder, trailStopLoss, trailingPositions } from '../db/repository.ts';

/** Bus channel telling the leader that a position's trailing stop was set or removed. */
export const TRAILING_CHANGED = 'trading:trailing-changed';
/** A moved stop-loss is written at most this often per position (the newest level wins). */
const FLUSH_MS = 250;
const RELOAD_MS = 30_000;

interface Trail {
  id: number;
  symbolId: number;
  isBuy: boolean;
  points: number;
  openPrice: string;
  /** The group's markup the position closes with (price units; null: none). */
  markup: Markup | null;
  /** The stop-loss as stored. */
  stored: string | null;
  /** A better level waiting to be written. */
  next: string | null;
}

/**
 * Trailing stops, on the leader: the stop-loss of a position with a trailing distance follows the
 * price. As in MT5 it starts once the price is the distance beyond the open price (a buy's stop never
 * below its entry through trailing), and only ever moves forward. The level is stored on the order
 * (at most every 250 ms per position) so it survives restarts and failovers, and the engine's usual
 * stop-loss closes the position; the close is announced as a trailing stop.
 */
export class TrailingStops {
  private readonly bySymbol = new Map<number, Map<number, Trail>>();
  private readonly dirty = new Set<Trail>();
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void)[] = [];
  private flushing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly ops: OrderOps,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    this.unsubscribe = [
      this.ctx.services.market.onTick(this.onTick),
      this.ctx.bus.subscribe(TRAILING_CHANGED, () => void this.reload().catch(this.logError)),
    ];
    const flush = setInterval(() => void this.flush(), FLUSH_MS);
    const reload = setInterval(() => void this.reload().catch(this.logError), RELOAD_MS);
    flush.unref();
    reload.unref();
    this.timers = [flush, reload];
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribe) u();
    for (const timer of this.timers) clearInterval(timer);
    this.unsubscribe = [];
    this.timers = [];
    await this.flush();
  }

  private readonly logError = (err: unknown) => this.ctx.log.error({ err }, 'trailing stops failed');

  /** Follows a position at once on this server (when it watches), besides telling the leader. */
  track(row: OrderRow): void {
    if (this.timers.length) this.follow(row);
    this.ctx.bus.publish(TRAILING_CHANGED, { id: row.id });
  }

  private follow(row: OrderRow): void {
    const list = this.bySymbol.get(row.symbolId) ?? new Map<number, Trail>();
    this.bySymbol.set(row.symbolId, list);
    if (row.trailingPoints === null || row.status !== OrderStatus.OPEN) {
      list.delete(row.id);
      return;
    }
    const known = list.get(row.id);
    list.set(row.id, {
      id: row.id,
      symbolId: row.symbolId,
      isBuy: row.orderType === OrderType.BUY,
      points: row.trailingPoints,
      openPrice: row.price ?? '0',
      markup: markupOfRow(row),
      stored: row.stopLoss,
      next: known?.next ?? null,
    });
  }

  private async reload(): Promise<void> {
    const rows = await trailingPositions(this.ctx.db);
    const seen = new Set(rows.map((r) => r.id));
    for (const list of this.bySymbol.values()) for (const id of list.keys()) if (!seen.has(id)) list.delete(id);
    for (const row of rows) this.follow(row);
  }

  private readonly onTick = (tick: Tick): void => {
    const list = this.bySymbol.get(tick.symbolId);
    if (!list?.size) return;
    const precision = this.ctx.services.market.symbol(tick.symbolId)?.pricePrecision ?? 5;
    const point = new D(10).pow(-precision);
    for (const trail of list.values()) {
      const distance = point.times(trail.points);
      // From the price the position closes at (its group's markup on the tick's bid or ask).
      const close = closePriceFor(trail.isBuy ? OrderType.BUY : OrderType.SELL, tick.bid, tick.ask, trail.markup);
      const level = trail.isBuy ? close.minus(distance) : close.plus(distance);
      const beyondEntry = trail.isBuy ? level.gt(trail.openPrice) : level.lt(trail.openPrice);
      if (!beyondEntry) continue;
      const current = trail.next ?? trail.stored;
      const better = current === null || (trail.isBuy ? level.gt(current) : level.lt(current));
      if (!better) continue;
      trail.next = fixed(level, precision);
      this.dirty.add(trail);
    }
  };

  /** Writes every moved stop-loss; settles when they are stored (tests call it after a tick). */
  flush(): Promise<unknown> {
    this.flushing = this.flushing.then(() => this.write()).catch(this.logError);
    return this.flushing;
  }

  private async write(): Promise<void> {
    const due = [...this.dirty];
    this.dirty.clear();
    for (const trail of due) {
      if (trail.next === null) continue;
      const to = trail.next;
      const moved = await trailStopLoss(this.ctx.db, trail.id, trail.stored, to);
      if (moved) {
        trail.stored = moved.stopLoss;
        if (trail.next === to) trail.next = null;
        this.ops.notifyStops(moved);
        continue;
      }
      // Closed, or the trader changed the stop-loss meanwhile: follow the order as it is now.
      const row = await findOrder(this.ctx.db, trail.id);
      trail.next = null;
      if (row) this.follow(row);
      else this.bySymbol.get(trail.symbolId)?.delete(trail.id);
    }
  }
}
