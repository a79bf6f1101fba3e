import { ClosedType, OrderStatus, OrderType } from '@tp/contract/constants';
import { type Dec, dec, moneyStr, ZERO } from '@tp/contract/decimal';
import { openPriceFor } from '@tp/contract/formulas';
import type { AppContext, AuthUser } from '../../../context.ts';
import { AppError, fail, invalid, notFound } from '../../../http/errors.ts';
import { t } from '../../../http/i18n.ts';
import type { MarketService } from '../../market/index.ts';
import { Admission, heldLots, marketClosed } from '../admission/admission.ts';
import { closeFeeOf, groupFeeOf, groupMarginOf, markupColumns } from '../admission/groups.ts';
import { defaultDeviationPoints, parseField } from '../admission/order-checks.ts';
import type { ABook } from '../hedging/a-book.ts';
import type { OrderOps, Prices } from './order-ops.ts';
import { marginCallNotice } from '../events/pushes.ts';
import { termsOf } from '../views/order-view.ts';
import { type Notice, noticeOf } from '../views/notice-view.ts';
import {
  type OrderRow,
  insertOrder,
  marginCallEvents,
  noticeOrders,
  openPositionsCondition,
  openPositionsOf,
  orderAndOpenPositionsCondition,
  findOrder,
  ownOpenPositionCondition,
  setTrailing,
} from '../db/repository.ts';
import type { Settlement } from './settlement.ts';
import type { TradingSettings } from '../admission/settings.ts';

const orderNotFound = () => notFound('trading.order_not_found');
/** The provider's fill as the prices of the one close (which puts the position's markup on it). */
const atFill = (fill: Dec): Prices => ({ bid: fill.toString(), ask: fill.toString() });

/** Money shares of a split: the part gets its proportional share at 6 places, the rest keeps the remainder exactly. */

/**
 * The position tools: partial close, close all (or all buys, all sells) of one symbol or
 * every symbol, reverse, the trade screen's figures of one symbol, and the trader's notices. Each runs
 * in the user's locked money transaction, like every other order call, so a position closes once
 * whatever races it (a take-profit, another close).
 */
export class PositionTools {
  private readonly admission: Admission;

  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
    private readonly settlement: Settlement,
    private readonly ops: OrderOps,
    private readonly aBook: ABook,
  ) {
    this.admission = new Admission(ctx, settings);
  }

  private get market(): MarketService {
    return this.ctx.services.market;
  }

  /**
   * Closes `lots` of an open position; the rest stays open under its id with its take-profit and
   * stop-loss. A-book: the part is sent to the provider first and closed at its price (docs/fix.md#hedging).
   * The copier mirroring a provider's partial close passes closed_type 7.
   */
  async closePart(
    user: AuthUser,
    orderId: number,
    lotsRaw: string,
    closedType: typeof ClosedType.USER | typeof ClosedType.COPY_PROVIDER = ClosedType.USER,
  ): Promise<OrderRow> {
    if (await this.aBook.books(this.settings, user.id, user.isDemo)) {
      const row = await this.ownOpen(user.id, orderId);
      // Checked before anything is sent, and again under the lock (the position may change meanwhile: the hedge then goes back).
      const lots = this.partOf(row, lotsRaw);
      this.liveQuote(row.symbolId);
      return this.aBook.close(row, (fill) => this.closePartAt(user, orderId, lotsRaw, atFill(fill), closedType), lots);
    }
    return this.closePartAt(user, orderId, lotsRaw, null, closedType);
  }

  /** The lots to close of `row` (whole or a part leaving at least the minimum), or the refusal. */
  private partOf(row: OrderRow, lotsRaw: string) {
    const sym = this.market.symbol(row.symbolId);
    if (!sym) throw orderNotFound();
    const whole = dec(row.quantity);
    const lots = parseField(lotsRaw, 'quantity', 6);
    if (lots.gt(whole)) throw invalid('trading.partial_above_position', { max: whole.toString() });
    if (!sym.step.isZero() && !lots.mod(sym.step).isZero()) throw invalid('trading.quantity_step', { step: sym.step.toString() });
    const rest = whole.minus(lots);
    if (!lots.eq(whole) && (lots.lt(sym.minLots) || rest.lt(sym.minLots)))
      throw invalid('trading.partial_below_min', { min: sym.minLots.toString() });
    return lots;
  }

  /** The symbol's quote, while its market is open. */
  private liveQuote(symbolId: number) {
    const quote = this.market.quote(symbolId);
    if (!quote || !this.market.isOpen(symbolId)) throw marketClosed(this.market.closedReason(symbolId));
    return quote;
  }

  /** The user's open position (another user's id answers like a missing one). */
  private async ownOpen(userId: number, orderId: number): Promise<OrderRow> {
    const row = Number.isSafeInteger(orderId) && orderId > 0 ? await findOrder(this.ctx.db, orderId) : undefined;
    if (!row || row.userId !== userId || row.status !== OrderStatus.OPEN) throw orderNotFound();
    return row;
  }

  /** The partial close at the quote now (null) or at the given prices (an A-book close at the provider's fill). */
  private closePartAt(
    user: AuthUser,
    orderId: number,
    lotsRaw: string,
    at: Prices | null,
    closedType: typeof ClosedType.USER | typeof ClosedType.COPY_PROVIDER,
  ): Promise<OrderRow> {
    return this.ops.forUser(
      user.id,
      user.isDemo,
      async (tx, w, changes, [row]) => {
        if (!row) throw orderNotFound();
        const lots = this.partOf(row, lotsRaw);
        const quote = this.liveQuote(row.symbolId);
        const quoteToUsd = this.market.quoteToUsd(row.symbolId);
        if (lots.eq(row.quantity)) {
          const closed = await this.ops.close(tx, w, row, at ?? quote, quoteToUsd, closedType, { locked: true });
          if (!closed) throw orderNotFound();
          changes.push({ type: 'closed', userId: user.id, orders: [closed] });
          return closed;
        }
        // Both parts are first brought up to date with the rollovers owed, then share the swap so far
        // like margin and fee: the closed part shows (and its statement line carries) the swap of its lots.
        const split = await this.ops.closePart(tx, w, row, lots, at ?? quote, quoteToUsd, closedType);
        if (!split) throw orderNotFound();
        const { closed } = split;
        changes.push({ type: 'sync', orderId: row.id, order: split.kept }, { type: 'closed', userId: user.id, orders: [closed] });
        return closed;
      },
      { read: ownOpenPositionCondition(user.id, orderId), lock: true },
    );
  }

  /**
   * type 0 every open position, 1 the buys, 2 the sells; of `symbolId` or of every symbol. A-book:
   * each position is sent to the provider and closed at its price, one after the other; one the
   * provider does not fill stays open and is listed as failed.
   */
  async closeByType(user: AuthUser, lang: string, type: 0 | 1 | 2, symbolId?: number) {
    const chosen = (o: OrderRow) => (type === 0 || o.orderType === type) && (symbolId === undefined || o.symbolId === symbolId);
    if (await this.aBook.books(this.settings, user.id, user.isDemo)) return this.closeEachAtProvider(user, lang, chosen);
    return this.ops.forUser(
      user.id,
      user.isDemo,
      async (tx, w, changes, open) => {
        const closed: OrderRow[] = [];
        const failed: { id: number; msg: string }[] = [];
        let profit = ZERO;
        for (const order of open.filter(chosen)) {
          const quote = this.market.quote(order.symbolId);
          if (!quote || !this.market.isOpen(order.symbolId)) {
            failed.push({ id: order.id, msg: t(lang, marketClosed(this.market.closedReason(order.symbolId)).key) });
            continue;
          }
          // Guarded like every close: a position a trigger closed a moment ago is skipped, never closed twice.
          const done = await this.ops.close(tx, w, order, quote, this.market.quoteToUsd(order.symbolId), ClosedType.USER, { locked: true });
          if (!done) continue;
          closed.push(done);
          profit = profit.plus(done.profit ?? 0);
        }
        if (closed.length) changes.push({ type: 'closed', userId: user.id, orders: closed });
        return { closed, failed, profit: moneyStr(profit) };
      },
      { read: openPositionsCondition(user.id), lock: true },
    );
  }

  /** The A-book close all: each chosen position through the provider, then closed at its fill in its own transaction. */
  private async closeEachAtProvider(user: AuthUser, lang: string, chosen: (o: OrderRow) => boolean) {
    const open = await openPositionsOf(this.ctx.db, user.id);
    const closed: OrderRow[] = [];
    const failed: { id: number; msg: string }[] = [];
    let profit = ZERO;
    for (const order of open.filter(chosen)) {
      try {
        this.liveQuote(order.symbolId);
        const done = await this.aBook.close(order, (fill) =>
          this.ops.forUser(
            user.id,
            user.isDemo,
            async (tx, w, changes, [row]) => {
              // Closed a moment ago (a trigger): the hedge goes back and the position is skipped.
              const ok =
                row &&
                (await this.ops.close(tx, w, row, atFill(fill), this.market.quoteToUsd(row.symbolId), ClosedType.USER, { locked: true }));
              if (!ok) throw orderNotFound();
              changes.push({ type: 'closed', userId: user.id, orders: [ok] });
              return ok;
            },
            { read: ownOpenPositionCondition(user.id, order.id), lock: true },
          ),
        );
        closed.push(done);
        profit = profit.plus(done.profit ?? 0);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.key !== 'trading.order_not_found') failed.push({ id: order.id, msg: t(lang, err.key, err.params) });
      }
    }
    return { closed, failed, profit: moneyStr(profit) };
  }

  /**
   * Closes a position and opens the same lots the other way at the same quote, in one transaction.
   * A-book: one order of twice the lots the other way goes to the provider first (the close and the
   * new position), and both sides are settled at its price.
   */
  async reverse(user: AuthUser, orderId: number): Promise<OrderRow> {
    if (await this.aBook.books(this.settings, user.id, user.isDemo)) {
      const row = await this.ownOpen(user.id, orderId);
      // Checked before anything is sent (the admission of the new side runs under the lock: refused, the hedge goes back).
      this.admission.symbolNow(row.symbolId, this.settings.accountTerms(user.id, user.isDemo).groupId);
      return this.aBook.close(row, (fill) => this.reverseAt(user, orderId, atFill(fill)), dec(row.quantity).mul(2));
    }
    return this.reverseAt(user, orderId, null);
  }

  /** The reverse at the quote now (null) or at the given prices (an A-book reverse at the provider's fill). */
  private reverseAt(user: AuthUser, orderId: number, at: Prices | null): Promise<OrderRow> {
    return this.ops.forUser(
      user.id,
      user.isDemo,
      async (tx, w, changes, read) => {
        const row = read.find((o) => o.id === orderId && o.status === OrderStatus.OPEN);
        if (!row) throw orderNotFound();
        const visible = this.market.symbol(row.symbolId);
        if (!visible || !visible.visible) throw orderNotFound();
        const terms = this.settings.accountTerms(user.id, user.isDemo);
        const { sym, quote } = this.admission.symbolNow(row.symbolId, terms.groupId);
        const quoteToUsd = this.market.quoteToUsd(row.symbolId);
        const prices = at ?? quote;
        const closed = await this.ops.close(tx, w, row, prices, quoteToUsd, ClosedType.USER, { locked: true });
        if (!closed) throw orderNotFound();
        changes.push({ type: 'closed', userId: user.id, orders: [closed] });

        const orderType = row.orderType === OrderType.BUY ? OrderType.SELL : OrderType.BUY;
        const lots = dec(row.quantity);
        const price = openPriceFor(orderType, prices.bid, prices.ask, sym.markup);
        // The new side is admitted like any order, on the account as the close left it (refused: the close is undone too).
        const positions = read.filter((o) => o.id !== row.id && o.status === OrderStatus.OPEN).map(termsOf);
        const margin = groupMarginOf(sym, lots, price, row.leverage, quoteToUsd, heldLots(positions, sym.id));
        const fee = groupFeeOf(sym, this.settings.tradeFeeType, lots, margin, price, quoteToUsd);
        this.admission.admit(
          { cash: w.cash, locked: w.locked, positions, terms },
          { symbolId: sym.id, orderType, lots, leverage: row.leverage, contractSize: sym.contractSize, margin, fee },
        );
        const opened = await insertOrder(tx, {
          userId: user.id,
          symbolId: sym.id,
          isDemo: user.isDemo,
          orderType,
          status: OrderStatus.OPEN,
          quantity: lots.toString(),
          leverage: row.leverage,
          contractSize: sym.contractSize.toString(),
          originPrice: null,
          pendingKind: null,
          price: price.toString(),
          closePrice: price.toString(),
          takeProfit: null,
          stopLoss: null,
          margin: moneyStr(margin),
          fee: moneyStr(fee),
          closeFee: moneyStr(closeFeeOf(sym, fee)),
          ...markupColumns(sym.markup),
          clientOrderId: null,
          openedAt: new Date(),
        });
        if (!opened) throw fail('trading.order_failed');
        await this.settlement.open(tx, w, opened, this.ops.memo(opened));
        changes.push({ type: 'opened', order: opened });
        return opened;
      },
      { read: orderAndOpenPositionsCondition(user.id, orderId), lock: true },
    );
  }

  /** The trade screen of one symbol (existing clients' `deal`): balances, lot terms and the symbol's orders. */
  async deal<V>(userId: number, symbolId: number, page: { page: number; limit: number }, view: (row: OrderRow) => V) {
    const sym = this.market.symbol(symbolId);
    if (!sym || !sym.visible) throw invalid('trading.symbol_not_found');
    const [figures, live] = await Promise.all([
      this.ctx.services.trading.accountFigures(userId),
      this.ctx.services.trading.liveOrdersOfSymbol(userId, symbolId, { limit: page.limit, offset: (page.page - 1) * page.limit }),
    ]);
    const quote = this.market.quote(symbolId);
    return {
      forex_id: sym.id,
      balance: moneyStr(figures.balance),
      lock_balance: moneyStr(figures.lockBalance),
      available_prepayment: moneyStr(figures.freeMargin),
      min_lots: sym.minLots.toString(),
      max_lots: sym.maxLots.toString(),
      lot_step: sym.step.toString(),
      multiples: sym.leverages.map((l) => l.value),
      deviation: defaultDeviationPoints(sym, dec(quote?.ask ?? 1)),
      orders: live.rows.map(view),
      orders_total: live.total,
    };
  }

  /** Sets (points > 0) or removes (0) the trailing stop of the user's open position. */
  async setTrailing(userId: number, orderId: number, points: number): Promise<OrderRow> {
    const row = await setTrailing(this.ctx.db, orderId, userId, points > 0 ? points : null);
    if (!row) throw orderNotFound();
    this.ctx.services.trading.trailing.track(row);
    return row;
  }

  /** Closes and fills the trader did not make, margin calls and account events (deposits, withdrawals, identity, support), newest first. */
  async notices(userId: number, page: number, limit: number) {
    // Both lists are read up to this page and merged by time (a page is at most 100 items).
    const upTo = page * limit;
    const [orderNotices, calls, account] = await Promise.all([
      noticeOrders(this.ctx.db, userId, 1, upTo),
      marginCallEvents(this.ctx.db, userId, upTo),
      this.ctx.services.trading.accountNotices.list(userId, upTo),
    ]);
    const merged = [
      ...orderNotices.rows.map((r) => noticeOf(r, this.market)).filter((n): n is Notice => n !== null),
      ...calls.rows.map((c) => marginCallNotice(c.riskRate, c.createdAt.getTime())),
      ...account.rows,
    ].sort((a, b) => b.time - a.time);
    return { data: merged.slice((page - 1) * limit, upTo), total: orderNotices.total + calls.total + account.total };
  }
}
