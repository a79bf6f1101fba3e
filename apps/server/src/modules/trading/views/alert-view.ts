import { fixed } from '@tp/contract/decimal';
import type { Alert } from '@tp/contract/schemas/trading';
import type { MarketService } from '../../market/index.ts';
import type { priceAlerts } from '../db/schema.ts';

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : 0);

/** A price alert in its wire shape. */
export function alertView(row: typeof priceAlerts.$inferSelect, market: Pick<MarketService, 'symbol'>): Alert {
  const sym = market.symbol(row.symbolId);
  const precision = sym?.pricePrecision ?? 5;
  return {
    id: row.id,
    forex_id: row.symbolId,
    symbol: sym?.showCode ?? String(row.symbolId),
    side: row.side === 'ask' ? 'ask' : 'bid',
    direction: row.direction === 1 ? 1 : -1,
    price: fixed(row.price, precision),
    email: row.email ? 1 : 0,
    created_at: seconds(row.createdAt),
    fired_at: seconds(row.firedAt),
    fired_price: row.firedPrice === null ? '0' : fixed(row.firedPrice, precision),
  };
}
