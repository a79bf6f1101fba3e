import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/social';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

export function registerSocialRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, api.followList, ({ input }) => ctx.services.social.ranking(input));
}
