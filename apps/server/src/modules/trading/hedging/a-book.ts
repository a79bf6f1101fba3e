import { OrderType } from '@tp/contract/constants';
import { type Dec, dec } from '@tp/contract/decimal';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../../context.ts';
import { fail } from '../../../http/errors.ts';
import type { SymbolInfo } from '../../market/index.ts';
import { requote, worstFill } from '../admission/order-checks.ts';
import type { OrderRow } from '../db/repository.ts';
import { hedgeOrders } from '../db/schema.ts';
import type { HedgeResult, HedgeService } from './hedge-service.ts';

/** The client's order is refused because the provider did not fill its hedge: nothing was opened or closed. */
export const liquidityRefused = () => fail('trading.liquidity_refused');

/**
 * A-book execution (docs/fix.md#hedging): each client market order and close is first sent to the
 * provider; the client is then filled at the provider's price, through the one admission and the
 * one settlement (the callers' `fill`). No client position without its hedge: a provider that
 * rejects, does not answer in time or fills part refuses the client's order, and any quantity it
 * did fill is sent back (unwound); whatever cannot be made to agree is a mismatch on the desk.
 */
export class ABook {
  constructor(
    private readonly ctx: AppContext,
    private readonly hedges: HedgeService,
  ) {}

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

  /** A market order: hedged at the client's worst price within their deviation, then opened at the provider's price. */
  async open(
    sym: SymbolInfo,
    orderType: number,
    lots: Dec,
    seen: string,
    deviation: number | undefined,
    fill: (price: Dec) => Promise<OrderRow>,
  ): Promise<OrderRow> {
    if (!this.hedges.available(sym.id)) throw liquidityRefused();
    const { seen: seenPx, points, worst } = worstFill(sym, orderType, seen, deviation);
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
        // An IOC limit the provider could not fill within the client's deviation: a requote at the price now.
        const quote = this.ctx.services.market.quote(sym.id);
        if (res.status === 'cancelled' && quote)
          throw requote(sym, orderType === OrderType.BUY ? dec(quote.ask) : dec(quote.bid), seenPx, points);
        throw liquidityRefused();
      }
      if (orderType === OrderType.BUY ? price.gt(worst) : price.lt(worst)) {
        await this.unwind(res);
        throw requote(sym, price, seenPx, points);
      }
      let row: OrderRow;
      try {
        row = await fill(price);
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

  /** A close: the opposite order to the provider first, then the client's close at its price. */
  async close(row: OrderRow, fill: (price: Dec) => Promise<OrderRow>): Promise<OrderRow> {
    if (!this.hedges.available(row.symbolId)) throw liquidityRefused();
    const release = this.hedges.hold(row.symbolId);
    try {
      const res = await this.hedges.execute({
        symbolId: row.symbolId,
        side: row.orderType === OrderType.BUY ? 'sell' : 'buy',
        units: dec(row.quantity).mul(row.contractSize),
        clientOrderIds: [row.id],
        reason: 'a_close',
      });
      const price = await this.settled(res);
      if (!price) throw liquidityRefused();
      try {
        return await fill(price);
      } catch (err) {
        await this.unwind(res);
        throw err;
      }
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
