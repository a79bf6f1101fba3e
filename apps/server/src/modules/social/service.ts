import { DOCUMENTARY_WINDOW_DAYS } from '@tp/contract/constants';
import { dec, fixed, moneyStr, type DecInput } from '@tp/contract/decimal';
import type { RankingItem } from '@tp/contract/schemas/social';
import type { AppContext } from '../../context.ts';
import { rankingName } from './mask.ts';
import { rankingRows, type RankingRow } from './repository.ts';

export const RANKING_CACHE_MS = 60_000;
const DAY_MS = 86_400_000;

/** part / whole x 100 to 2 decimals (half-even); 0.00 when there is no whole. */
export function percentOf(part: DecInput, whole: DecInput): string {
  const w = dec(whole);
  return w.isZero() ? '0.00' : fixed(dec(part).div(w).mul(100), 2);
}

export function rankingItem(r: RankingRow): RankingItem {
  return {
    user: rankingName({ displayName: r.display_name, email: r.email, mobile: r.mobile, uid: r.uid }),
    multiple: r.multiple,
    three_week_rate: percentOf(r.profit, r.margin),
    three_week_win: percentOf(r.wins, r.trades),
    three_week_profit: moneyStr(r.profit),
    total_rate: percentOf(r.total_profit, r.total_margin),
    total_trade_num: r.total_trades,
    code: r.show_code ?? '',
    followers: 0,
  };
}

/** The trader ranking (copy-trading list), computed from real closed orders and kept for a minute. */
export class SocialService {
  private cache: { items: RankingItem[]; until: number } | null = null;
  private computing: Promise<RankingItem[]> | null = null;
  private generation = 0;

  constructor(private readonly ctx: AppContext) {}

  async ranking(page: { page: number; limit: number }) {
    const items = await this.rankingItems();
    const start = (page.page - 1) * page.limit;
    return { data: items.slice(start, start + page.limit), total: items.length };
  }

  /** Drops the cached ranking (tests, or after bulk corrections of orders); a refresh under way is not kept. */
  clearRankingCache(): void {
    this.cache = null;
    this.computing = null;
    this.generation++;
  }

  /** Within a minute the cached list; after that the stale list while one refresh runs in the background. */
  private async rankingItems(): Promise<RankingItem[]> {
    const cached = this.cache;
    if (cached && cached.until > Date.now()) return cached.items;
    const refreshing = this.refresh();
    return cached ? cached.items : refreshing;
  }

  /** One computation at a time, shared by every request that needs it. */
  private refresh(): Promise<RankingItem[]> {
    if (this.computing) return this.computing;
    const generation = this.generation;
    const since = new Date(Date.now() - DOCUMENTARY_WINDOW_DAYS * DAY_MS);
    const computing = rankingRows(this.ctx.db, this.ctx.services.market, since)
      .then((rows) => {
        const items = rows.map(rankingItem);
        if (generation === this.generation) this.cache = { items, until: Date.now() + RANKING_CACHE_MS };
        return items;
      })
      .finally(() => {
        if (this.computing === computing) this.computing = null;
      });
    computing.catch((err: unknown) => this.ctx.log.error({ err }, 'ranking refresh failed'));
    this.computing = computing;
    return computing;
  }
}
