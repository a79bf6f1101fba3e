import { ClosedType, OrderStatus, OrderType } from '@tp/contract/constants';
import { dec, moneyStr, ZERO } from '@tp/contract/decimal';
import { openPriceFor } from '@tp/contract/formulas';
import type { AppContext, AuthUser } from '../../../context.ts';
import { fail, invalid, notFound } from '../../../http/errors.ts';
import { t } from '../../../http/i18n.ts';
import type { MarketService } from '../../market/index.ts';
import { Admission, heldLots, marketClosed } from '../admission/admission.ts';
import { closeFeeOf, groupFeeOf, groupMarginOf, markupColumns } from '../admission/groups.ts';
import { defaultDeviationPoints, parseField } from '../admission/order-checks.ts';
import type { OrderOps } from './order-ops.ts';
import { marginCallNotice } from '../events/pushes.ts';
import { termsOf } from '../views/order-view.ts';
import { type Notice, noticeOf } from '../views/notice-view.ts';
import {
  type OrderRow,
  insertOrder,
  marginCallEvents,
  noticeOrders,
  openPositionsCondition,
  orderAndOpenPositionsCondition,
  ownOpenPositionCondition,
  setTrailing,
} from '../db/repository.ts';
import type { Settlement } from './settlement.ts';
import type { TradingSettings } from '../admission/settings.ts';

const orderNotFound = () => notFound('trading.order_not_found');

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
  ) {
    this.admission = new Admission(ctx, settings);
  }

  private get market(): MarketService {
    return this.ctx.services.market;
  }

  /**
   * Closes `lots` of an open position; the rest stays open under its id with its take-profit and
   * stop-loss. The copier mirroring a provider's partial close passes closed_type 7.
   */
  closePart(
    user: AuthUser,
    orderId: number,
    lotsRaw: string,
    closedType: typeof ClosedType.USER | typeof ClosedType.COPY_PROVIDER = ClosedType.USER,
  ): Promise<OrderRow> {
    return this.ops.forUser(
      user.id,
      user.isDemo,
      async (tx, w, changes, [row]) => {
        if (!row) throw orderNotFound();
        const sym = this.market.symbol(row.symbolId);
        if (!sym) throw orderNotFound();
        const whole = dec(row.quantity);
        const lots = parseField(lotsRaw, 'quantity', 6);
        if (lots.gt(whole)) throw invalid('trading.partial_above_position', { max: whole.toString() });
        if (!sym.step.isZero() && !lots.mod(sym.step).isZero()) throw invalid('trading.quantity_step', { step: sym.step.toString() });
        const quote = this.market.quote(row.symbolId);
        if (!quote || !this.market.isOpen(row.symbolId)) throw marketClosed(this.market.closedReason(row.symbolId));
        const quoteToUsd = this.market.quoteToUsd(row.symbolId);
        if (lots.eq(whole)) {
          const closed = await this.ops.close(tx, w, row, quote, quoteToUsd, closedType, { locked: true });
          if (!closed) throw orderNotFound();
          changes.push({ type: 'closed', userId: user.id, orders: [closed] });
          return closed;
        }
        const rest = whole.minus(lots);
        if (lots.lt(sym.minLots) || rest.lt(sym.minLots)) throw invalid('trading.partial_below_min', { min: sym.minLots.toString() });
        // Both parts are first brought up to date with the rollovers owed, then share the swap so far
        // like margin and fee: the closed part shows (and its statement line carries) the swap of its lots.
        const split = await this.ops.closePart(tx, w, row, lots, quote, quoteToUsd, closedType);
        if (!split) throw orderNotFound();
        const { closed } = split;
        changes.push({ type: 'sync', orderId: row.id, order: split.kept }, { type: 'closed', userId: user.id, orders: [closed] });
        return closed;
      },
      { read: ownOpenPositionCondition(user.id, orderId), lock: true },
    );
  }

  /** type 0 every open position, 1 the buys, 2 the sells; of `symbolId` or of every symbol. */
  closeByType(user: AuthUser, lang: string, type: 0 | 1 | 2, symbolId?: number) {
    return this.ops.forUser(
      user.id,
      user.isDemo,
      async (tx, w, changes, open) => {
        const chosen = open.filter((o) => (type === 0 || o.orderType === type) && (symbolId === undefined || o.symbolId === symbolId));
        const closed: OrderRow[] = [];
        const failed: { id: number; msg: string }[] = [];
        let profit = ZERO;
        for (const order of chosen) {
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

  /** Closes a position and opens the same lots the other way at the same quote, in one transaction. */
  reverse(user: AuthUser, orderId: number): Promise<OrderRow> {
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
        const closed = await this.ops.close(tx, w, row, quote, quoteToUsd, ClosedType.USER, { locked: true });
        if (!closed) throw orderNotFound();
        changes.push({ type: 'closed', userId: user.id, orders: [closed] });

        const orderType = row.orderType === OrderType.BUY ? OrderType.SELL : OrderType.BUY;
        const lots = dec(row.quantity);
        const price = openPriceFor(orderType, quote.bid, quote.ask, sym.markup);
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
