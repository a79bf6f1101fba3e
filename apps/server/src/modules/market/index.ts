import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { WsGateway } from '../../realtime/gateway.ts';
import { CandleFlusher } from './candle-flusher.ts';
import { ensureHistory } from './history.ts';
import { MarketServiceImpl } from './market-service.ts';
import { registerMarketRoutes } from './routes.ts';
import { socketSnapshots } from './socket-snapshots.ts';
import { createPriceSource } from './sources/create-source.ts';
import type { PriceSource } from './sources/price-source.ts';
import { type MarketService, type Tick } from './types.ts';
import { BusChannels, type FeedBeat } from '../../platform/bus-channels.ts';

/** What other modules may use of the market. */
export type { MarketService, SymbolInfo, Tick } from './types.ts';
export type { FixSessionStatus } from './sources/fix-feed.ts';
export type { FixMode, FixOrderGateway, FixOrderReport, FixOrderRequest, FixSymbolRoute } from './sources/price-source.ts';
export {
  findCategory,
  findSymbol,
  leveragesBySymbol,
  listCategories,
  listSymbols,
  replaceLeverages,
  saveCategory,
  type SymbolChanges,
  type SymbolRow,
  updateSymbol,
} from './setup-repository.ts';

declare module '../../context.ts' {
  interface Services {
    market: MarketService;
    realtime: WsGateway;
    /** The running price source (PRICE_SOURCE); its FIX sessions are shown by /health/ready and /metrics. */
    priceSource: PriceSource;
  }
}

/** Schedule changes and stale quotes are announced within this delay; trading checks both at each call. */
const STATUS_CHECK_MS = 1_000;
/** The leader's feed heartbeat (several servers): a fifth of FEED_SILENCE_MS's default. */
const FEED_BEAT_MS = 1_000;

export const marketModule = {
  name: 'market',
  async register(app: FastifyInstance, ctx: AppContext) {
    const market = new MarketServiceImpl(ctx);
    await market.init();
    ctx.services.market = market;
    registerMarketRoutes(app, ctx, market);
    if (ctx.clustered) {
      ctx.bus.subscribe(BusChannels.tick, (m) => market.applyRemoteTick(m as Tick));
      ctx.bus.subscribe(BusChannels.feed, (m) => market.heardFeed(m as FeedBeat));
    }
    const gateway = new WsGateway(ctx, socketSnapshots(market));
    gateway.register(app);
    ctx.services.realtime = gateway;

    let statusTimer: NodeJS.Timeout | null = null;
    let beatTimer: NodeJS.Timeout | null = null;
    const flusher = new CandleFlusher(ctx.db, ctx.log, market.candles, ctx.config.CANDLE_FLUSH_MS);
    const source = createPriceSource({ market, config: ctx.config, log: ctx.log });
    ctx.services.priceSource = source;
    ctx.background.push(
      {
        name: 'candle-history',
        leaderOnly: true,
        async start() {
          const generated = await ensureHistory(ctx.db, ctx.log, market.symbols(), {
            count: ctx.config.HISTORY_BARS,
            seed: ctx.config.PRICE_SEED,
            now: Date.now(),
            priceOf: (id) => market.quote(id)!.mid,
          });
          if (generated) await market.seedDayFigures();
        },
        stop() {},
      },
      flusher,
      {
        name: 'market-status',
        leaderOnly: true,
        start() {
          market.checkMarketStatus();
          statusTimer = setInterval(() => market.checkMarketStatus(), STATUS_CHECK_MS);
        },
        stop() {
          if (statusTimer) clearInterval(statusTimer);
        },
      },
      {
        // The leader's heartbeat: followers refuse to trade when they stop hearing it (FEED_SILENCE_MS).
        name: 'feed-heartbeat',
        leaderOnly: true,
        start() {
          market.setFeeding(true);
          market.announceFeed();
          beatTimer = setInterval(() => market.announceFeed(), FEED_BEAT_MS);
          beatTimer.unref();
        },
        stop() {
          if (beatTimer) clearInterval(beatTimer);
          market.setFeeding(false);
        },
      },
      { name: `price-source:${source.name}`, leaderOnly: true, start: () => source.start(), stop: () => source.stop() },
    );
  },
};
