import { OrderStatus } from '@tp/contract/constants';
import { ZERO, moneyStr } from '@tp/contract/decimal';
import { openPriceFor } from '@tp/contract/formulas';
import type { Order } from '@tp/contract/schemas/trading';
import type { AppContext } from '../../../context.ts';
import { floatingOf } from '../engine/figures.ts';
import { markupOfRow, orderView, termsOf } from './order-view.ts';
import { type OrderRow, listAllOrders, listOrders, openPositionsOf, realisedProfit } from '../db/repository.ts';

/** my_deal: one tab of the order list with its totals. */
/** my_deal status -1: every order of the user, whatever its status (existing clients send it). */
const ALL = -1;

export async function myDeals(ctx: AppContext, userId: number, status: number, page: number, limit: number) {
  const market = ctx.services.market;
  const statuses = status === OrderStatus.CLOSED ? [OrderStatus.CLOSED, OrderStatus.CANCELLED] : [status];
  const [{ rows, total }, balances] = await Promise.all([
    status === ALL ? listAllOrders(ctx.db, userId, page, limit) : listOrders(ctx.db, userId, statuses, page, limit),
    ctx.services.ledger.balances(ctx.db, userId),
  ]);
  let allFactProfits = ZERO;
  if (status === OrderStatus.OPEN) {
    for (const row of await openPositionsOf(ctx.db, userId)) allFactProfits = allFactProfits.plus(floatingOf(termsOf(row), market).profit);
  } else if (status === OrderStatus.CLOSED) {
    allFactProfits = allFactProfits.plus(await realisedProfit(ctx.db, userId));
  }
  return {
    data: rows.map((row) => viewOf(ctx, row)),
    total,
    all_fact_profits: moneyStr(allFactProfits),
    balance: moneyStr(balances.balance),
  };
}

/** An order as clients see it; an open position shows its current close price and floating profit. */
export function viewOf(ctx: AppContext, row: OrderRow): Order {
  const market = ctx.services.market;
  const sym = market.symbol(row.symbolId);
  if (row.status === OrderStatus.OPEN) return orderView(row, sym, floatingOf(termsOf(row), market));
  if (row.status === OrderStatus.PENDING) {
    const q = market.quote(row.symbolId);
    const current = q ? openPriceFor(row.orderType, q.bid, q.ask, markupOfRow(row)).toString() : null;
    return { ...orderView(row, sym), UpdatePrice: current ?? '0' };
  }
  return orderView(row, sym);
}
