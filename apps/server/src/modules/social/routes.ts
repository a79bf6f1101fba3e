import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/social';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

export function registerSocialRoutes(app: FastifyInstance, ctx: AppContext) {
  const social = () => ctx.services.social;
  route(app, ctx, api.followList, ({ input }) => social().ranking(input));
  route(app, ctx, api.followProfile, ({ input, user }) => social().profile(input.id, user?.id));
  route(app, ctx, api.followProviderEnable, ({ input, user }) => social().copy.enable(user, input));
  route(app, ctx, api.followSubscribe, ({ input, user }) => social().copy.subscribe(user, input));
  route(app, ctx, api.followUnsubscribe, ({ input, user }) => social().copy.unsubscribe(user, input));
  route(app, ctx, api.followPause, ({ input, user }) => social().copy.pause(user, input));
  route(app, ctx, api.followMine, ({ user }) => social().copy.mine(user));
  route(app, ctx, api.adminSettleCopyFees, async ({ input, staff }) => {
    const result = await social().copy.settleFees(input.period);
    await ctx.services.staff.audit(ctx.db, staff, 'copy.settle_fees', { type: 'period', id: input.period }, null, result);
    return result;
  });
}
