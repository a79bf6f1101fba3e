import { ClosedType, type CopyClosedType, OrderStatus } from '@tp/contract/constants';
import { type Dec, dec, moneyStr } from '@tp/contract/decimal';
import { closePriceFor, openPriceFor } from '@tp/contract/formulas';
import type { SubmitInput } from '@tp/contract/schemas/trading';
import type { AppContext, AuthUser } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { LeadNotWrittenError } from '../ledger/index.ts';
import type { MarketService } from '../market/index.ts';
import { Admission, heldLots, marketClosed } from './admission/admission.ts';
import { type AccountTerms, type GroupedSymbol, closeFeeOf, groupFeeOf, groupMarginOf, markupColumns } from './admission/groups.ts';
import type { ABook } from './hedging/a-book.ts';
import { checkOrder, checkSlippage, checkStopSides, parseStop } from './admission/order-checks.ts';
import type { OrderOps, Prices } from './settlement/order-ops.ts';
import { markupOfRow, termsOf } from './views/order-view.ts';
import {
  type OrderRow,
  findByClientOrderId,
  findOrder,
  insertOrderStatement,
  liveOrdersCondition,
  orderFromRaw,
  openPositionsCondition,
  ownOpenPositionCondition,
  updateStops,
} from './db/repository.ts';
import type { Settlement } from './settlement/settlement.ts';
import type { TradingSettings } from './admission/settings.ts';

export { marketClosed } from './admission/admission.ts';
const orderNotFound = () => notFound('trading.order_not_found');

/** The trader's order calls: submit, close, cancel, take-profit and stop-loss. */
export class OrderService {
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

  async submit(user: AuthUser, input: SubmitInput): Promise<OrderRow> {
    // A retry answers with the first attempt's order before anything is checked again: the market
    // may have moved since, and the trader must not be told "refused" for an order that exists.
    if (input.client_order_id) {
      const existing = await findByClientOrderId(this.ctx.db, user.id, input.client_order_id);
      if (existing) return existing;
    }
    // The user's group (read again when this server's copy is older than a few seconds): its terms for this order.
    await this.settings.groups.ensureUsers(this.ctx.db, [user.id]);
    const terms = this.settings.accountTerms(user.id, user.isDemo);
    const { sym, quote } = this.admission.symbolNow(input.forex_id, terms.groupId);
    const req = checkOrder(sym, input, quote);
    const quoteToUsd = this.market.quoteToUsd(sym.id);
    const price = req.pending ? req.pending.target : openPriceFor(req.orderType, quote.bid, quote.ask, sym.markup);
    const deviation = input.deviation ?? sym.deviationPoints ?? undefined;
    // A-book: the provider's fill first, then the client's at its price (docs/fix.md#hedging).
    if (!req.pending && this.settings.groups.group(terms.groupId)?.book === 'A') {
      const open = () =>
        this.aBook.open(
          sym,
          req.orderType,
          req.lots,
          input.price?.trim() ? input.price : price.toString(),
          deviation,
          (fill) => this.openAt(user, input, sym, req, terms, quoteToUsd, fill),
          sym.markup,
        );
      // A retry while the first attempt's hedge is on its way waits for that attempt: one hedge per client order.
      if (!input.client_order_id) return open();
      return this.aBook.once(`${user.id}:${input.client_order_id}`, open);
    }
    if (!req.pending) checkSlippage(sym, req.orderType, input.price, deviation, price);
    return this.openAt(user, input, sym, req, terms, quoteToUsd, price);
  }

  /** The one path that writes a new order (market or pending) at `price`, under the user's lock. */
  private openAt(
    user: AuthUser,
    input: SubmitInput,
    sym: GroupedSymbol,
    req: ReturnType<typeof checkOrder>,
    terms: AccountTerms,
    quoteToUsd: Dec,
    price: Dec,
  ): Promise<OrderRow> {
    const clientOrderId = input.client_order_id;

    const opened = this.ops.forUserGrouped(
      user.id,
      user.isDemo,
      async (tx, w, changes, live, id) => {
        if (clientOrderId) {
          const existing = await findByClientOrderId(tx, user.id, clientOrderId);
          if (existing) return existing;
        }
        const positions = live.filter((o) => o.status === OrderStatus.OPEN).map(termsOf);
        const pendingCount = live.length - positions.length;
        // With leverage tiers the margin depends on the lots the account already holds in the symbol.
        const margin = groupMarginOf(sym, req.lots, price, req.leverage, quoteToUsd, heldLots(positions, sym.id));
        const fee = groupFeeOf(sym, this.settings.tradeFeeType, req.lots, margin, price, quoteToUsd);
        this.admission.admit(
          { cash: w.cash, locked: w.locked, positions, pendingCount, terms },
          {
            symbolId: sym.id,
            orderType: req.orderType,
            lots: req.lots,
            leverage: req.leverage,
            contractSize: sym.contractSize,
            margin,
            fee,
            placing: req.pending !== null,
          },
        );
        const order = { id: id!, margin: moneyStr(margin), fee: moneyStr(fee) };
        // The insert travels with its posting, in one round trip.
        const insert = insertOrderStatement({
          id: order.id,
          userId: user.id,
          symbolId: sym.id,
          isDemo: user.isDemo,
          orderType: req.orderType,
          status: req.pending ? OrderStatus.PENDING : OrderStatus.OPEN,
          quantity: req.lots.toString(),
          leverage: req.leverage,
          contractSize: sym.contractSize.toString(),
          originPrice: req.pending?.target.toString() ?? null,
          pendingKind: req.pending?.kind ?? null,
          price: req.pending ? null : price.toString(),
          closePrice: req.pending ? null : price.toString(),
          takeProfit: req.takeProfit?.toString() ?? null,
          stopLoss: req.stopLoss?.toString() ?? null,
          margin: order.margin,
          fee: order.fee,
          closeFee: moneyStr(closeFeeOf(sym, fee)),
          ...markupColumns(sym.markup),
          clientOrderId: clientOrderId ?? null,
          expiresAt: req.pending?.expiresAt ?? null,
          openedAt: req.pending ? null : new Date(),
        });
        const memo = this.ops.memoFor(sym.id, order.id);
        const row = orderFromRaw(
          (req.pending
            ? await this.settlement.reserve(tx, w, order, memo, insert)
            : await this.settlement.open(tx, w, order, memo, insert))!,
        );
        changes.push(req.pending ? { type: 'pending', order: row } : { type: 'opened', order: row });
        return row;
      },
      // The open positions (and, for a pending order, the pending ones), read under the lock in the
      // lock's round trip, with the new order's id.
      { read: req.pending ? liveOrdersCondition(user.id) : openPositionsCondition(user.id), newOrder: true, rank: 0 },
    );
    if (!clientOrderId) return opened;
    // Only a concurrent submit with the same client order id (on another server) finds its insert
    // skipped; all it wrote is rolled back, and the answer is the order that was first.
    return opened.catch(async (err: unknown) => {
      if (!(err instanceof LeadNotWrittenError)) throw err;
      const existing = await findByClientOrderId(this.ctx.db, user.id, clientOrderId);
      if (!existing) throw err;
      return existing;
    });
  }

  /** Only the owner's orders: another user's id answers exactly like a missing one. */
  private async ownOrder(userId: number, orderId: number, statuses: number[]): Promise<OrderRow> {
    const row = await findOrder(this.ctx.db, orderId);
    if (!row || row.userId !== userId || !statuses.includes(row.status)) throw orderNotFound();
    return row;
  }

  /**
   * The trader's close. The order is read under the user's lock, in the lock's round trip, and
   * only if it is theirs: another user's id answers exactly like a missing one. The copier closing a
   * follower's copy passes its own close type (7-9), so the history says the copy closed it, not the user.
   */
  closeByOwner(user: AuthUser, orderId: number, closedType: CopyClosedType | typeof ClosedType.USER = ClosedType.USER): Promise<OrderRow> {
    if (!Number.isSafeInteger(orderId) || orderId <= 0) return Promise.reject(orderNotFound());
    return this.closeNow(user.id, user.isDemo, orderId, closedType);
  }

  /** Staff close (closed_type 5), for the back office. */
  async closeByStaff(orderId: number): Promise<OrderRow> {
    const row = await findOrder(this.ctx.db, orderId);
    if (!row || row.status !== OrderStatus.OPEN) throw orderNotFound();
    return this.closeNow(row.userId, row.isDemo, orderId, ClosedType.STAFF);
  }

  private async closeNow(ownerId: number, isDemo: boolean, orderId: number, closedType: number): Promise<OrderRow> {
    if (await this.aBook.books(this.settings, ownerId, isDemo)) {
      const row = await findOrder(this.ctx.db, orderId);
      if (!row || row.userId !== ownerId || row.status !== OrderStatus.OPEN) throw orderNotFound();
      if (!this.market.quote(row.symbolId) || !this.market.isOpen(row.symbolId)) throw marketClosed(this.market.closedReason(row.symbolId));
      // Staff can always close: with no provider session up, at the quote (the reconciler takes the hedge back later).
      const staffWithoutProvider = closedType === ClosedType.STAFF && !this.aBook.available(row.symbolId);
      if (!staffWithoutProvider) {
        // The provider's fill first; the client's close at its price, through the one settlement.
        return this.aBook.close(row, (fill) =>
          this.closeAt(ownerId, isDemo, orderId, closedType, { bid: fill.toString(), ask: fill.toString() }),
        );
      }
    }
    return this.closeAt(ownerId, isDemo, orderId, closedType, null);
  }

  /** Closes at the quote now (null) or at the given prices (an A-book close at the provider's fill). */
  private closeAt(ownerId: number, isDemo: boolean, orderId: number, closedType: number, at: Prices | null): Promise<OrderRow> {
    return this.ops.forUserGrouped(
      ownerId,
      isDemo,
      async (tx, w, changes, [row]) => {
        if (!row) throw orderNotFound();
        const quote = this.market.quote(row.symbolId);
        if (!quote || !this.market.isOpen(row.symbolId)) throw marketClosed(this.market.closedReason(row.symbolId));
        const quoteToUsd = this.market.quoteToUsd(row.symbolId);
        const closed = await this.ops.close(tx, w, row, at ?? quote, quoteToUsd, closedType, { locked: true });
        if (!closed) throw orderNotFound();
        // Never refused for money: a realised loss may take the cash below zero while equity stays positive.
        changes.push({ type: 'closed', userId: row.userId, orders: [closed] });
        return closed;
      },
      { read: ownOpenPositionCondition(ownerId, orderId), lock: true, rank: 1 },
    );
  }

  async cancel(userId: number, orderId: number): Promise<OrderRow> {
    const row = await this.ownOrder(userId, orderId, [OrderStatus.PENDING]);
    return this.ops.forUser(userId, row.isDemo, async (tx, w, changes) => {
      const cancelled = await this.ops.cancel(tx, w, row, 'user');
      if (!cancelled) throw orderNotFound();
      changes.push({ type: 'closed', userId, orders: [cancelled] });
      return cancelled;
    });
  }

  /** Sets or removes take-profit and stop-loss ("0" or empty removes one). */
  async setStops(userId: number, orderId: number, takeProfitRaw: string | undefined, stopLossRaw: string | undefined): Promise<OrderRow> {
    const row = await this.ownOrder(userId, orderId, [OrderStatus.PENDING, OrderStatus.OPEN]);
    const sym = this.market.symbol(row.symbolId);
    const precision = sym?.pricePrecision ?? 10;
    const takeProfit = parseStop(takeProfitRaw, 'take_profit', precision);
    const stopLoss = parseStop(stopLossRaw, 'stop_loss', precision);
    let reference = dec(row.originPrice ?? 0);
    if (row.status === OrderStatus.OPEN) {
      const quote = this.market.quote(row.symbolId);
      if (!quote) throw marketClosed();
      reference = closePriceFor(row.orderType, quote.bid, quote.ask, markupOfRow(row));
    }
    checkStopSides(row.orderType, reference, takeProfit, stopLoss, precision);
    const updated = await updateStops(this.ctx.db, orderId, userId, takeProfit?.toString() ?? null, stopLoss?.toString() ?? null);
    if (!updated) throw orderNotFound();
    this.ops.notifyStops(updated);
    return updated;
  }
}
