import { Code } from '@tp/contract/codes';
import { type CancelReason, OrderType } from '@tp/contract/constants';
import { D, type Dec, ZERO } from '@tp/contract/decimal';
import type { AppContext } from '../../../context.ts';
import { money } from '../../../http/i18n.ts';
import { AppError, fail, invalid } from '../../../http/errors.ts';
import type { MarketService, SymbolInfo } from '../../market/index.ts';
import { type PositionTerms, atOrBelow, figuresOf, raisesMargin } from '../engine/figures.ts';

import type { AccountTerms, GroupedSymbol } from './groups.ts';
import type { TradingSettings } from './settings.ts';

/**
 * Why an order is not admitted: the trader's call answers with it as it is, and a pending order
 * refused at its fill is cancelled with `cancel`, or left waiting (null) when the refusal passes by
 * itself (a quote that is not live, a jump the price filter still holds).
 */
export class Refusal extends AppError {
  constructor(
    error: AppError,
    readonly cancel: CancelReason | null,
  ) {
    super(error.code, error.key, error.params, error.data);
  }
}

/** Refusal while a symbol is not tradable: outside its hours, or without a live quote (stale, paused or none yet). */
export const marketClosed = (reason: string | null = 'closed') =>
  new AppError(Code.MARKET_CLOSED, reason === 'stale' || reason === 'no_quote' ? 'trading.quote_not_live' : 'trading.market_closed');

/** What opens or enlarges exposure: a market order, a pending order placed or filled, a reverse's new side. */
export interface Candidate {
  symbolId: number;
  orderType: number;
  lots: Dec;
  leverage: number;
  /** Contract size the position will carry (the symbol's now for a new order, the stored one at a fill). */
  contractSize: Dec;
  /** Margin and fee at the price it opens (or, for a pending order placed, at its target). */
  margin: Dec;
  fee: Dec;
  /** Placing a pending order (nothing opens yet: the pending cap applies instead of the positions cap). */
  placing?: boolean;
}

/** The account as read under its lock, in the transaction that opens the order. */
export interface AccountNow {
  cash: Dec;
  locked: Dec;
  /** Open positions after anything the same transaction closed first. */
  positions: PositionTerms[];
  /** Pending orders waiting (needed when placing one). */
  pendingCount?: number;
  /** Money that comes back to the cash as the order opens (a pending order's reservation at its fill). */
  released?: Dec;
  /** The account's group's terms (levels, caps); without them, the house's settings and the symbols' own terms. */
  terms?: AccountTerms;
}

/** Signed units (lots x contract size; buys positive) of the account's positions in one symbol. */
export function netUnits(
  positions: Iterable<Pick<PositionTerms, 'symbolId' | 'orderType' | 'quantity' | 'contractSize'>>,
  symbolId: number,
): Dec {
  let net = ZERO;
  for (const p of positions) {
    if (p.symbolId !== symbolId) continue;
    const units = p.quantity.mul(p.contractSize);
    net = p.orderType === OrderType.BUY ? net.plus(units) : net.minus(units);
  }
  return net;
}

/** The lots of the account's open positions in one symbol, both sides (leverage tiers count them). */
export function heldLots(positions: Iterable<Pick<PositionTerms, 'symbolId' | 'quantity'>>, symbolId: number): Dec {
  let lots = ZERO;
  for (const p of positions) if (p.symbolId === symbolId) lots = lots.plus(p.quantity);
  return lots;
}

/**
 * A true hedge: it adds no margin required and takes the account's net exposure in the symbol
 * towards flat, never past it (an opposite order larger than the net would open new exposure
 * that the larger-side margin rule does not charge for).
 */
export function isTrueHedge(positions: PositionTerms[], order: Candidate): boolean {
  if (raisesMargin(positions, order)) return false;
  const net = netUnits(positions, order.symbolId);
  const units = order.lots.mul(order.contractSize);
  const sells = order.orderType !== OrderType.BUY;
  return !net.isZero() && net.isPositive() === sells && units.lte(net.abs());
}

/**
 * The one admission of every order that opens or enlarges exposure (market submit, pending order
 * placed and filled, reverse): decided as of now, on the symbol's current terms and the account
 * as read under its lock.
 */
export class Admission {
  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
  ) {}

  private get market(): MarketService {
    return this.ctx.services.market;
  }

  /**
   * The symbol (on the terms of the account's group, `groupId`; null: the symbol's own) and its quote
   * when it may be traded now: visible, tradable and offered by the group, in its hours with a live
   * quote (and a live conversion pair), no jump held.
   */
  symbolNow(
    symbolId: number,
    groupId: number | null = null,
  ): { sym: GroupedSymbol; quote: NonNullable<ReturnType<MarketService['quote']>> } {
    const own = this.market.symbol(symbolId);
    if (!own || !own.visible) throw new Refusal(invalid('trading.symbol_not_found'), 'symbol_not_tradable');
    const sym = this.settings.groups.symbolFor(groupId, own);
    if (!sym.tradable || !sym.enabled) throw new Refusal(fail('trading.symbol_not_tradable'), 'symbol_not_tradable');
    const quote = this.market.quote(sym.id);
    if (!quote || !this.market.isOpen(sym.id)) throw new Refusal(marketClosed(this.market.closedReason(sym.id)), null);
    return { sym, quote };
  }

  /** Throws a Refusal unless `order` may open now next to `account`. */
  admit(account: AccountNow, order: Candidate): void {
    const { sym } = this.symbolNow(order.symbolId, account.terms?.groupId ?? null);
    this.checkLimits(sym, order.leverage, order.lots);
    this.checkCaps(account, order);
    this.checkMargin(account, order);
  }

  /** Leverage and lots within the symbol's terms as staff set them now. */
  checkLimits(sym: SymbolInfo, leverage: number, lots: Dec): void {
    const refuse = (e: AppError) => new Refusal(e, 'limits_changed');
    if (!sym.leverages.length) throw refuse(fail('trading.no_mult'));
    const allowed = sym.leverages.map((l) => l.value);
    if (!allowed.includes(leverage)) throw refuse(invalid('trading.leverage_not_allowed', { allowed: allowed.join(', ') }));
    if (lots.lt(sym.minLots)) throw refuse(invalid('trading.quantity_below_min', { min: sym.minLots.toString() }));
    if (lots.gt(sym.maxLots)) throw refuse(invalid('trading.quantity_above_max', { max: sym.maxLots.toString() }));
    if (!sym.step.isZero() && !lots.mod(sym.step).isZero()) throw refuse(invalid('trading.quantity_step', { step: sym.step.toString() }));
  }

  private checkCaps(account: AccountNow, order: Candidate): void {
    if (order.placing) {
      const max = account.terms?.maxPendingOrders ?? this.settings.maxPendingOrders;
      if ((account.pendingCount ?? 0) >= max) throw new Refusal(fail('trading.pending_orders_limit', { max }), 'position_limit');
      return;
    }
    const max = account.terms?.maxOpenPositions ?? this.settings.maxOpenPositions;
    if (account.positions.length >= max) throw new Refusal(fail('trading.open_positions_limit', { max }), 'position_limit');
  }

  /**
   * Outside a margin call an order's margin and fee must be covered by the free margin (and the
   * cash, which pays them); under a margin call only a true hedge passes. A true hedge costs the
   * account's risk nothing but its fee, so it is paid from the cash alone, in a margin call or not.
   */
  private checkMargin(account: AccountNow, order: Candidate): void {
    const released = account.released ?? ZERO;
    const figures = figuresOf(account.cash, account.locked, account.positions, this.market);
    const hedge = isTrueHedge(account.positions, order);
    if (!hedge && atOrBelow(figures, account.terms?.marginCallLevel ?? this.settings.marginCallLevel)) {
      throw new Refusal(fail('trading.margin_call_in_force'), 'insufficient_margin');
    }
    const cash = account.cash.plus(released);
    const funds = hedge ? cash : D.min(figures.freeMargin.plus(released), cash);
    const cost = order.margin.plus(order.fee);
    if (funds.lt(cost)) {
      const error = new AppError(Code.INSUFFICIENT_MARGIN, 'trading.insufficient_margin', {
        required: money(cost),
        available: money(D.max(0, funds)),
      });
      throw new Refusal(error, 'insufficient_margin');
    }
  }
}
