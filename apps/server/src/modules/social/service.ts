import { DOCUMENTARY_WINDOW_DAYS } from '@tp/contract/constants';
import { dec, fixed, moneyStr, type DecInput } from '@tp/contract/decimal';
import type { RankingItem } from '@tp/contract/schemas/social';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { rankableUsers } from '../auth/index.ts';
import { closedOrderFiguresSince, closedOrdersOfUser, tradeCurveFigures, type TradeCurveFigures } from '../trading/index.ts';
import { CopyService } from './copy-service.ts';
import { rankingName } from './mask.ts';
import { rankingRows, type RankingRow } from './repository.ts';

export const RANKING_CACHE_MS = 60_000;
const DAY_MS = 86_400_000;

/** part / whole x 100 to 2 decimals (half-even); 0.00 when there is no whole. */
export function percentOf(part: DecInput, whole: DecInput): string {
  const w = dec(whole);
  return w.isZero() ? '0.00' : fixed(dec(part).div(w).mul(100), 2);
}

/** What the ranking row does not hold: copy trading's followers and the closed-trade curve's figures. */
export interface RankingExtras {
  followers: number;
  copyable: boolean;
  curve: TradeCurveFigures | undefined;
}

export function rankingItem(r: RankingRow, extras: RankingExtras = { followers: 0, copyable: false, curve: undefined }): RankingItem {
  return {
    id: r.user_id,
    user: rankingName({ displayName: r.display_name, email: r.email, mobile: r.mobile, uid: r.uid }),
    multiple: r.multiple,
    three_week_rate: percentOf(r.profit, r.margin),
    three_week_win: percentOf(r.wins, r.trades),
    three_week_profit: moneyStr(r.profit),
    total_rate: percentOf(r.total_profit, r.total_margin),
    total_trade_num: r.total_trades,
    code: r.show_code ?? '',
    followers: extras.followers,
    copyable: extras.copyable,
    max_drawdown: extras.curve ? percentOf(extras.curve.maxDrawdown, extras.curve.totalMargin) : '0.00',
    avg_hold_seconds: extras.curve?.avgHoldSeconds ?? 0,
  };
}

/** The trader ranking (copy-trading list), computed from real closed orders and kept for a minute. */
export class SocialService {
  private cache: { items: RankingItem[]; until: number } | null = null;
  private computing: Promise<RankingItem[]> | null = null;
  private generation = 0;

  readonly copy: CopyService;

  constructor(private readonly ctx: AppContext) {
    this.copy = new CopyService(ctx);
  }

  /** Followers, provider opt-in and closed-trade curve figures of these traders. */
  private async extras(userIds: number[]): Promise<(id: number) => RankingExtras> {
    const [followers, providers, curves] = await Promise.all([
      this.copy.followerCounts(userIds),
      this.copy.enabledProviders(userIds),
      tradeCurveFigures(this.ctx.db, userIds),
    ]);
    return (id) => ({ followers: followers.get(id) ?? 0, copyable: providers.has(id), curve: curves.get(id) });
  }

  /**
   * A trader's profile: the ranking's statistics (over their real closed orders; zeros when none in
   * the window) and the equity curve (cumulative profit after each closed trade). Only traders who
   * may be shown in the ranking (real, not opted out, enabled) or who opted in as providers.
   */
  async profile(id: number, viewerId: number | undefined) {
    const [people, provider] = await Promise.all([rankableUsers(this.ctx.db, [id]), this.copy.provider(id)]);
    const who = people.get(id);
    if (!who) throw notFound('follow.provider_not_found');
    const since = new Date(Date.now() - DOCUMENTARY_WINDOW_DAYS * DAY_MS);
    const [figures, closed, extras, following] = await Promise.all([
      closedOrderFiguresSince(this.ctx.db, since).then((all) => all.find((f) => f.userId === id)),
      closedOrdersOfUser(this.ctx.db, id),
      this.extras([id]),
      viewerId ? this.copy.isFollowing(viewerId, id) : Promise.resolve(false),
    ]);
    const totalProfit = closed.reduce((a, o) => a.plus(o.profit), dec(0));
    const totalMargin = closed.reduce((a, o) => a.plus(o.margin), dec(0));
    const row: RankingRow = {
      user_id: id,
      display_name: who.displayName,
      email: who.email,
      mobile: who.mobile,
      uid: who.uid,
      profit: figures?.profit ?? '0',
      margin: figures?.margin ?? '0',
      trades: figures?.trades ?? 0,
      wins: figures?.wins ?? 0,
      multiple: figures?.multiple ?? 0,
      show_code: figures ? (this.ctx.services.market.symbol(figures.symbolId)?.showCode ?? null) : null,
      total_profit: totalProfit.toString(),
      total_margin: totalMargin.toString(),
      total_trades: closed.length,
    };
    let cumulative = dec(0);
    const curve = closed.map((o) => {
      cumulative = cumulative.plus(o.profit);
      return { time: Math.floor((o.completedAt ?? o.createdAt).getTime() / 1000), value: moneyStr(cumulative) };
    });
    return {
      stats: rankingItem(row, extras(id)),
      fee_pct: dec(provider?.enabled ? provider.feePct : 0).toFixed(2),
      sub_fee: dec(provider?.enabled ? provider.subFee : 0).toFixed(2),
      equity_curve: curve,
      following,
    };
  }

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
      .then(async (rows) => {
        const extras = await this.extras(rows.map((r) => r.user_id));
        const items = rows.map((r) => rankingItem(r, extras(r.user_id)));
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
