import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  AbbreviatedKlineInput,
  AbbreviatedKlineResponse,
  CategoriesResponse,
  KlineInput,
  KlineResponse,
  TradeListInput,
  TradeListResponse,
} from '@tp/contract/schemas/market';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { defineRoute, type AuthMode, type RouteDef } from '../../http/route.ts';
import { categoryNames, type CategoryKey } from '../../platform/db/seed-data.ts';
import type { MarketServiceImpl } from './market-service.ts';
import { klineBar, tradeListRow } from './presenters.ts';
import { loadCategories } from './repository.ts';
import { KlineService } from './kline-service.ts';

const tags = ['market'];

/** Existing clients send these calls as GET with a query; POST with a form body is accepted too. */
function defineGetAndPost<S extends z.ZodType, A extends AuthMode>(
  app: FastifyInstance,
  ctx: AppContext,
  def: Omit<RouteDef<S, A>, 'method'>,
) {
  for (const method of ['GET', 'POST'] as const) defineRoute<S, A>(app, ctx, { ...def, method });
}

export function registerMarketRoutes(app: FastifyInstance, ctx: AppContext, market: MarketServiceImpl) {
  const klines = new KlineService(ctx.db, market);

  defineGetAndPost(app, ctx, {
    url: '/v1/api/forex/trade_list',
    input: TradeListInput,
    summary: 'Tradable symbols with their terms and live quotes (searchCurrency filters on Code or ShowCode)',
    tags,
    response: TradeListResponse,
    handler({ input }) {
      const search = input.searchCurrency?.toLowerCase();
      const now = Date.now();
      return market
        .symbols()
        .filter((s) => s.visible)
        .filter((s) => !search || s.code.toLowerCase().includes(search) || s.showCode.toLowerCase().includes(search))
        .map((s) => tradeListRow(s, market.quote(s.id)!, market.closedReason(s.id, now)));
    },
  });

  for (const url of ['/v1/api/forex/getCategories', '/v1/api/forex/categories']) {
    defineGetAndPost(app, ctx, {
      url,
      summary: 'Symbol categories with names translated by the lang header',
      tags,
      response: CategoriesResponse,
      async handler({ lang }) {
        const rows = await loadCategories(ctx.db);
        return rows.map((c) => {
          const names = categoryNames[c.key as CategoryKey];
          return { Id: c.id, NameShowTrans: names ? (names[lang] ?? names.en) : c.key };
        });
      },
    });
  }

  defineGetAndPost(app, ctx, {
    url: '/v1/api/forex/kline',
    input: KlineInput,
    summary: 'Candle bars oldest first; page back with before (exclusive) or end (inclusive), limit up to 1000',
    tags,
    response: KlineResponse,
    async handler({ input }) {
      const symbol = market.symbol(input.forex_id);
      if (!symbol) throw notFound('symbol_not_found');
      const bars = await klines.bars({
        symbolId: symbol.id,
        period: input.period,
        limit: input.limit,
        before: input.before,
        end: input.end,
      });
      return bars.map((b) => klineBar(symbol, input.period, b));
    },
  });

  defineGetAndPost(app, ctx, {
    url: '/v1/api/forex/abbreviated_cache_kline',
    input: AbbreviatedKlineInput,
    summary: 'The short recent series (last 48 bars) the market list draws; cached briefly',
    tags,
    response: AbbreviatedKlineResponse,
    async handler({ input }) {
      const symbol = market.symbol(input.forex_id);
      if (!symbol) throw notFound('symbol_not_found');
      const bars = await klines.recent(symbol.id, input.period);
      return bars.map((b) => klineBar(symbol, input.period, b));
    },
  });
}
