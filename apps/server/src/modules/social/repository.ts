import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';

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

/**
 * Traders with a real closed order completed since `since`, ordered by profit rate over that window
 * (profit / margin), then profit, then user id. Most used leverage and most traded symbol break ties
 * by the higher leverage and the lower symbol id. Demo accounts, opted-out and disabled users are left out.
 * One grouped pass over closed orders, so the plan stays cheap even without table statistics (PGlite).
 */
export async function rankingRows(db: DbOrTx, since: Date, closedStatus: number): Promise<RankingRow[]> {
  const inWindow = sql`o.completed_at >= ${since.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    select r.*, s.show_code
    from (
      select o.user_id, u.display_name, u.email, u.mobile, u.uid,
             sum(o.fact_profits) filter (where ${inWindow}) as profit,
             sum(o.caution_money) filter (where ${inWindow}) as margin,
             count(*) filter (where ${inWindow}) as trades,
             count(*) filter (where ${inWindow} and o.fact_profits > 0) as wins,
             mode() within group (order by o.multiple desc) filter (where ${inWindow}) as multiple,
             mode() within group (order by o.symbol_id asc) filter (where ${inWindow}) as symbol_id,
             sum(o.fact_profits) as total_profit, sum(o.caution_money) as total_margin, count(*) as total_trades
      from orders o
      join users u on u.id = o.user_id
      where o.status = ${closedStatus} and not o.is_demo and not u.is_demo and not u.ranking_opt_out and u.status = 1
      group by o.user_id, u.id
      having count(*) filter (where ${inWindow}) > 0
    ) r
    left join symbols s on s.id = r.symbol_id
    order by case when r.margin > 0 then r.profit / r.margin else 0 end desc, r.profit desc, r.user_id asc
  `);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({
    user_id: Number(r.user_id),
    display_name: r.display_name as string | null,
    email: r.email as string | null,
    mobile: r.mobile as string | null,
    uid: String(r.uid),
    profit: String(r.profit),
    margin: String(r.margin),
    trades: Number(r.trades),
    wins: Number(r.wins),
    multiple: Number(r.multiple),
    show_code: r.show_code as string | null,
    total_profit: String(r.total_profit),
    total_margin: String(r.total_margin),
    total_trades: Number(r.total_trades),
  }));
}
