import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/market';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { categoryNames, type CategoryKey } from '../../platform/db/seed-data.ts';
import type { MarketServiceImpl } from './market-service.ts';
import { klineBar, tradeListRow } from './presenters.ts';
import { loadCategories } from './repository.ts';
import { KlineService } from './kline-service.ts';
import { addFavourite, listFavourites, removeFavourite } from './favourites.ts';

export function registerMarketRoutes(app: FastifyInstance, ctx: AppContext, market: MarketServiceImpl) {
  const klines = new KlineService(ctx.db, market);

  route(app, ctx, api.tradeList, async ({ input, user }) => {
    const search = input.searchCurrency?.toLowerCase();
    const now = Date.now();
    // The caller's account group's terms (leverages, largest lot, fee); a guest sees the default real group's.
    const termsOf = await ctx.services.trading.symbolTermsFor(user);
    return market
      .symbols()
      .filter((s) => s.visible)
      .filter((s) => !search || s.code.toLowerCase().includes(search) || s.showCode.toLowerCase().includes(search))
      .flatMap((s) => {
        const g = termsOf(s);
        return g
          ? [
              tradeListRow(
                { ...s, leverages: g.leverages, maxLots: g.maxLots, feeRate: g.feeRate },
                market.quote(s.id)!,
                market.closedReason(s.id, now),
                g.markup,
              ),
            ]
          : [];
      });
  });

  for (const endpoint of [api.categories, api.categoriesAlias]) {
    route(app, ctx, endpoint, async ({ lang }) => {
      const rows = await loadCategories(ctx.db);
      return rows.map((c) => {
        const names = categoryNames[c.key as CategoryKey];
        return { Id: c.id, NameShowTrans: names ? (names[lang] ?? names.en) : c.key };
      });
    });
  }

  route(app, ctx, api.kline, async ({ input }) => {
    const symbol = market.symbol(input.forex_id);
    if (!symbol) throw notFound('symbol_not_found');
    const bars = await klines.bars({ symbolId: symbol.id, period: input.period, limit: input.limit, before: input.before, end: input.end });
    return bars.map((b) => klineBar(symbol, input.period, b));
  });

  route(app, ctx, api.abbreviatedKline, async ({ input }) => {
    const symbol = market.symbol(input.forex_id);
    if (!symbol) throw notFound('symbol_not_found');
    const bars = await klines.recent(symbol.id, input.period);
    return bars.map((b) => klineBar(symbol, input.period, b));
  });

  route(app, ctx, api.favourites, ({ user }) => listFavourites(ctx.db, user.id));

  const knownSymbol = (id: number) => {
    const symbol = market.symbol(id);
    if (!symbol || !symbol.visible) throw notFound('symbol_not_found');
    return symbol.id;
  };
  route(app, ctx, api.favouriteAdd, ({ input, user }) => addFavourite(ctx.db, user.id, knownSymbol(input.forex_id)));
  route(app, ctx, api.favouriteRemove, ({ input, user }) => removeFavourite(ctx.db, user.id, input.forex_id));
}
