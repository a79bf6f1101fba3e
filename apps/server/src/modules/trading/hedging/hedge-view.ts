import { type Dec, ZERO, dec } from '@tp/contract/decimal';
import type { DeskHedges } from '@tp/contract/schemas/admin';
import type { MarketService } from '../../market/index.ts';
import type { HedgeReconciler } from './hedge-reconciler.ts';
import type { HedgeService } from './hedge-service.ts';

/** Lots of `units` of a symbol (units / contract size), as a plain decimal string. */
function lotsOf(market: MarketService, symbolId: number, units: Dec | string): string {
  const size = market.symbol(symbolId)?.contractSize ?? dec(1);
  return dec(units).div(size).toDecimalPlaces(6).toString();
}

/** The hedge book for the dealer's desk (GET /api/admin/desk/hedges). */
export async function hedgeBookView(market: MarketService, hedges: HedgeService, reconciler: HedgeReconciler): Promise<DeskHedges> {
  const [targets, book, held, mismatches] = await Promise.all([
    reconciler.targets(),
    hedges.book(100),
    hedges.netBySymbol(),
    hedges.mismatchesSince(new Date(Date.now() - 24 * 3600_000)),
  ]);
  const code = (id: number) => market.symbol(id)?.showCode ?? String(id);
  const bySymbol = new Map(targets.map((t) => [t.symbolId, t]));
  const ids = [...new Set([...bySymbol.keys(), ...held.keys()])].sort((a, b) => code(a).localeCompare(code(b)));
  return {
    time: Date.now(),
    connected: hedges.canSend() ? 1 : 0,
    symbols: ids.map((id) => {
      const t = bySymbol.get(id);
      const h = held.get(id) ?? ZERO;
      const target = t?.target ?? ZERO;
      return {
        symbol_id: id,
        code: code(id),
        clients_net_lots: lotsOf(market, id, t?.clients ?? ZERO),
        target_lots: lotsOf(market, id, target),
        hedged_lots: lotsOf(market, id, h),
        difference_lots: lotsOf(market, id, target.minus(h)),
      };
    }),
    positions: book.positions.map((p) => ({
      session: p.session,
      symbol_id: p.symbolId,
      code: code(p.symbolId),
      net_lots: lotsOf(market, p.symbolId, p.netUnits),
      updated_at: p.updatedAt.toISOString(),
    })),
    orders: book.orders.map((o) => ({
      id: o.id,
      cl_ord_id: o.clOrdId,
      session: o.session,
      code: code(o.symbolId),
      side: o.side as 'buy' | 'sell',
      lots: lotsOf(market, o.symbolId, o.quantity),
      status: o.status,
      filled_lots: lotsOf(market, o.symbolId, o.filledQty),
      avg_price: o.avgPrice === null ? null : dec(o.avgPrice).toString(),
      reason: o.reason,
      client_order_ids: o.clientOrderIds,
      mismatch: o.mismatch,
      text: o.text,
      created_at: o.createdAt.toISOString(),
    })),
    mismatches,
  };
}
