import type { FastifyInstance } from 'fastify';
import { PageInput, pageOf } from '@tp/contract/schemas/content';
import { RankingItemSchema } from '@tp/contract/schemas/social';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';

export function registerSocialRoutes(app: FastifyInstance, ctx: AppContext) {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/follow/list',
    input: PageInput,
    summary:
      'Trader ranking (copy-trading list) over the last three weeks of real closed orders, best profit rate first; refreshed every minute',
    tags: ['social'],
    response: pageOf(RankingItemSchema),
    handler: ({ input }) => ctx.services.social.ranking(input),
  });
}
