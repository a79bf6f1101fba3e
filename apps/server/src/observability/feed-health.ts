import type { AppContext } from '../context.ts';
import type { FixMode, FixSessionStatus, FixSymbolRoute } from '../modules/market/index.ts';

export type FeedState = 'live' | 'stale' | 'no_tick' | 'closed';

export interface SymbolFeedHealth {
  symbolId: number;
  code: string;
  state: FeedState;
  lastTickAgeMs: number | null;
  suspectTicks: number;
}

/** What the market module may offer (feedHealth); until it does, the quote times tell. */
interface FeedHealthSource {
  feedHealth?: () => SymbolFeedHealth[];
}

/** Every symbol's feed: the market's own view when it has one, else the age of its newest quote. */
export function feedHealthOf(ctx: AppContext, now = Date.now()): SymbolFeedHealth[] {
  const market = ctx.services.market as typeof ctx.services.market & FeedHealthSource;
  if (market.feedHealth) return market.feedHealth();
  const staleMs = ctx.config.FEED_STALE_MS;
  return market.symbols().map((s) => {
    const quote = market.quote(s.id);
    const lastTickAgeMs = quote ? Math.max(0, now - quote.time) : null;
    const state: FeedState = !market.isOpen(s.id, now)
      ? 'closed'
      : lastTickAgeMs === null
        ? 'no_tick'
        : lastTickAgeMs <= staleMs
          ? 'live'
          : 'stale';
    return { symbolId: s.id, code: s.code, state, lastTickAgeMs, suspectTicks: 0 };
  });
}

export interface FeedSummary {
  ok: boolean;
  /** Age of the newest tick of any open symbol (null: none has ticked, or every market is closed). */
  newestTickAgeMs: number | null;
  thresholdMs: number;
  symbols: SymbolFeedHealth[];
}

/** Fresh when some open market is live and ticked within FEED_STALE_MS, or when every market is closed (nothing should tick then). */
export function feedSummary(ctx: AppContext, now = Date.now()): FeedSummary {
  const symbols = feedHealthOf(ctx, now);
  const open = symbols.filter((s) => s.state !== 'closed');
  const ages = open.map((s) => s.lastTickAgeMs).filter((a): a is number => a !== null);
  const fresh = (s: SymbolFeedHealth) => s.state === 'live' && s.lastTickAgeMs !== null && s.lastTickAgeMs <= ctx.config.FEED_STALE_MS;
  return {
    ok: open.length === 0 || open.some(fresh),
    newestTickAgeMs: ages.length ? Math.min(...ages) : null,
    thresholdMs: ctx.config.FEED_STALE_MS,
    symbols,
  };
}

/** One FIX session of the price source (PRICE_SOURCE=fix), as the source reports it. */
export type FixSessionHealth = FixSessionStatus;

/** The price source's FIX sessions (none for the other sources, and on a follower, which runs no source). */
export function fixSessionsOf(ctx: AppContext): FixSessionHealth[] {
  return fixSourceOf(ctx)?.sessions?.() ?? [];
}

/** Per symbol, the FIX providers its price comes from now (none for the other sources, and on a follower). */
export function fixRoutesOf(ctx: AppContext): FixSymbolRoute[] {
  return fixSourceOf(ctx)?.routes?.() ?? [];
}

/** The routing mode of FIX_CONFIG (null: the price source is not FIX). */
export function fixModeOf(ctx: AppContext): FixMode | null {
  return ctx.config.PRICE_SOURCE === 'fix' ? (ctx.config.fix?.mode ?? 'failover') : null;
}

interface FixSourceView {
  sessions?: () => FixSessionHealth[];
  routes?: () => FixSymbolRoute[];
}

function fixSourceOf(ctx: AppContext): FixSourceView | undefined {
  return (ctx.services as { priceSource?: FixSourceView }).priceSource;
}
