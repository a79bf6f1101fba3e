import { OrderType } from '@tp/contract/constants';
import { type Dec, dec } from '@tp/contract/decimal';
import { type Markup, openPriceFor } from '@tp/contract/formulas';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../../context.ts';
import { fail } from '../../../http/errors.ts';
import type { SymbolInfo } from '../../market/index.ts';
import { requote, worstFill } from '../admission/order-checks.ts';
import type { OrderRow } from '../db/repository.ts';
import { hedgeOrders } from '../db/schema.ts';
import type { TradingSettings } from '../admission/settings.ts';
import type { HedgeResult, HedgeService } from './hedge-service.ts';

/** The client's order is refused because the provider did not fill its hedge: nothing was opened or closed. */
export const liquidityRefused = () => fail('trading.liquidity_refused');

/**
 * A-book execution (docs/fix.md#hedging): each client market order and close is first sent to the
 * provider; the client is then filled at the provider's price, through the one admission and the
 * one settlement (the callers' `fill`). No client position without its hedge: a provider that
 * rejects, does not answer in time or fills part refuses the client's order, and any quantity it
 * did fill is sent back (unwound); whatever cannot be made to agree is a mismatch on the desk.
 * One instance serves the order calls and the position tools (partial close, reverse, close all).
 */
export class ABook {
  constructor(
    private readonly ctx: AppContext,
    private readonly hedges: HedgeService,
  ) {}

  /** Whether the account's group is A-book (its group read again when this server's copy is old). */
  async books(settings: TradingSettings, userId: number, isDemo: boolean): Promise<boolean> {
    await settings.groups.ensureUsers(this.ctx.db, [userId]);
    const groupId = settings.groups.groupIdOf(userId, isDemo);
    return groupId !== null && settings.groups.group(groupId)?.book === 'A';
  }

  /** Whether hedge orders can be sent for the symbol now. */
  available(symbolId: number): boolean {
    return this.hedges.available(symbolId);
  }

  private readonly pending = new Map<string, Promise<OrderRow>>();

  /** Runs `fn` once for `key` at a time: a second call while the first runs answers with the first's result. */
  once(key: string, fn: () => Promise<OrderRow>): Promise<OrderRow> {
    const running = this.pending.get(key);
    if (running) return running;
    const p = fn().finally(() => this.pending.delete(key));
    this.pending.set(key, p);
    return p;
  }

  /**
   * A market order: hedged at the client's worst price within their deviation, then opened at the
   * provider's price with the group's markup on it (`fill` hears that client price). `seen` is the
   * price the client saw (with the markup). A provider that rejects the order, or cannot fill the IOC
   * within the deviation, answers with a requote at the client's price now.
   */
  async open(
    sym: SymbolInfo,
    orderType: number,
    lots: Dec,
    seen: string,
    deviation: number | undefined,
    fill: (price: Dec) => Promise<OrderRow>,
    markup: Markup | null = null,
  ): Promise<OrderRow> {
    if (!this.hedges.available(sym.id)) throw liquidityRefused();
    const buy = orderType === OrderType.BUY;
    const { seen: seenPx, points, worst: worstClient } = worstFill(sym, orderType, seen, deviation);
    // The client's prices and the provider's differ by the markup: the provider's worst is the client's less it.
    const worst = markup ? (buy ? worstClient.minus(markup.ask) : worstClient.plus(markup.bid)) : worstClient;
    const toClient = (p: Dec) => openPriceFor(orderType, p, p, markup);
    const release = this.hedges.hold(sym.id);
    try {
      const res = await this.hedges.execute({
        symbolId: sym.id,
        side: orderType === OrderType.BUY ? 'buy' : 'sell',
        units: lots.mul(sym.contractSize),
        ...(this.hedges.limitOrders ? { limitPrice: worst } : {}),
        reason: 'a_open',
      });
      const price = await this.settled(res);
      if (!price) {
        // Rejected, or an IOC limit the provider could not fill within the client's deviation: a requote at the client's price now.
        const quote = this.ctx.services.market.quote(sym.id);
        if ((res.status === 'cancelled' || res.status === 'rejected') && quote)
          throw requote(sym, openPriceFor(orderType, quote.bid, quote.ask, markup), seenPx, points);
        throw liquidityRefused();
      }
      if (buy ? price.gt(worst) : price.lt(worst)) {
        await this.unwind(res);
        throw requote(sym, toClient(price), seenPx, points);
      }
      let row: OrderRow;
      try {
        row = await fill(toClient(price));
      } catch (err) {
        // Refused by the admission (margin, limits) after the provider filled: the hedge goes back.
        await this.unwind(res);
        throw err;
      }
      await this.ctx.db
        .update(hedgeOrders)
        .set({ clientOrderIds: [row.id] })
        .where(eq(hedgeOrders.id, res.row!.id));
      return row;
    } finally {
      release();
    }
  }

  /**
   * A close: the opposite order to the provider first, then the client's close at its price. `lots`
   * (default: the whole position) is what is sent: a partial close sends the part, a reverse twice the
   * position (the close and the new opposite position in one order). `fill` answers the client's order
   * it wrote (the closed part, the new position), recorded on the hedge order beside the position.
   */
  async close(row: OrderRow, fill: (price: Dec) => Promise<OrderRow>, lots: Dec = dec(row.quantity)): Promise<OrderRow> {
    if (!this.hedges.available(row.symbolId)) throw liquidityRefused();
    const release = this.hedges.hold(row.symbolId);
    try {
      const res = await this.hedges.execute({
        symbolId: row.symbolId,
        side: row.orderType === OrderType.BUY ? 'sell' : 'buy',
        units: lots.mul(row.contractSize),
        clientOrderIds: [row.id],
        reason: 'a_close',
      });
      const price = await this.settled(res);
      if (!price) throw liquidityRefused();
      let done: OrderRow;
      try {
        done = await fill(price);
      } catch (err) {
        await this.unwind(res);
        throw err;
      }
      if (done.id !== row.id)
        await this.ctx.db
          .update(hedgeOrders)
          .set({ clientOrderIds: [row.id, done.id] })
          .where(eq(hedgeOrders.id, res.row!.id));
      return done;
    } finally {
      release();
    }
  }

  /**
   * The provider's average price when it filled the whole order; else null, after alerting on the
   * reject or timeout and unwinding any part it filled.
   */
  private async settled(res: HedgeResult): Promise<Dec | null> {
    if (res.status === 'filled' && res.avgPrice) return res.avgPrice;
    if (res.status === 'rejected' || res.status === 'timeout') await this.hedges.mismatch(res.row, res.status);
    else if (res.filled.gt(0)) await this.hedges.mismatch(res.row, 'partial', { filled: res.filled.toString() });
    if (res.filled.gt(0)) await this.unwind(res);
    return null;
  }

  /** Sends back what a hedge filled; a failed unwind is a mismatch staff must settle by hand. */
  private async unwind(res: HedgeResult): Promise<void> {
    const row = res.row;
    if (!row || res.filled.lte(0)) return;
    const back = await this.hedges.execute({
      symbolId: row.symbolId,
      side: row.side === 'buy' ? 'sell' : 'buy',
      units: res.filled,
      reason: 'unwind',
    });
    if (back.status !== 'filled')
      await this.hedges.mismatch(row, 'unwind_failed', { unwound: back.filled.toString(), wanted: res.filled.toString() });
  }
}
