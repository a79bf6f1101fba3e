import { dec } from '@tp/contract/decimal';
import { RANKING_MIN_TRADES_DEFAULT } from '@tp/contract/schemas/content';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { settings } from '../../platform/db/platform-schema.ts';
import { rankableUsers } from '../auth/index.ts';
import type { MarketService } from '../market/index.ts';
import { closedOrderFiguresSince, type ClosedOrderFigures } from '../trading/index.ts';

/** One trader's figures, numbers as exact decimal strings straight from PostgreSQL. */
export interface RankingRow {
  user_id: number;
  display_name: string | null;
  email: string | null;
  mobile: string | null;
  uid: string;
  profit: string;
  margin: string;
  trades: number;
  wins: number;
  multiple: number;
  show_code: string | null;
  total_profit: string;
  total_margin: string;
  total_trades: number;
}

/** Staff's minimum of closed trades in the window (setting ranking_min_trades), else the default. */
export async function rankingMinTrades(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'ranking_min_trades')).limit(1);
  const value = row?.value.trim();
  return value && /^\d+$/.test(value) ? Number(value) : RANKING_MIN_TRADES_DEFAULT;
}

/**
 * Traders with at least staff's minimum of real closed orders completed since `since` (one lucky or
 * unlucky trade is not a track record), ordered by profit rate over that window
 * (profit / margin), then profit, then user id. Most used leverage and most traded symbol break ties
 * by the higher leverage and the lower symbol id. Demo accounts, opted-out and disabled users are left out.
 * Orders come from trading's read model, the people from auth's, symbol codes from the market service.
 */
export async function rankingRows(db: DbOrTx, market: Pick<MarketService, 'symbol'>, since: Date): Promise<RankingRow[]> {
  const minTrades = await rankingMinTrades(db);
  const figures = (await closedOrderFiguresSince(db, since)).filter((f) => f.trades > 0 && f.trades >= minTrades);
  const people = await rankableUsers(
    db,
    figures.map((f) => f.userId),
  );
  const rateOf = (f: ClosedOrderFigures) => (dec(f.margin).gt(0) ? dec(f.profit).div(f.margin) : dec(0));
  return figures
    .filter((f) => people.has(f.userId))
    .map((f) => ({ f, rate: rateOf(f) }))
    .sort((a, b) => b.rate.comparedTo(a.rate) || dec(b.f.profit).comparedTo(a.f.profit) || a.f.userId - b.f.userId)
    .map(({ f }) => {
      const who = people.get(f.userId)!;
      return {
        user_id: f.userId,
        display_name: who.displayName,
        email: who.email,
        mobile: who.mobile,
        uid: who.uid,
        profit: f.profit,
        margin: f.margin,
        trades: f.trades,
        wins: f.wins,
        multiple: f.multiple,
        show_code: market.symbol(f.symbolId)?.showCode ?? null,
        total_profit: f.totalProfit,
        total_margin: f.totalMargin,
        total_trades: f.totalTrades,
      };
    });
}
