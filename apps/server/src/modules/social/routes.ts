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
  route(app, ctx, api.adminCopyProviders, ({ input }) => social().copy.adminProviders(input));
  route(app, ctx, api.adminCopySuspend, async ({ input, staff }) => {
    const result = await social().copy.setSuspended(input.provider_id, input.suspended);
    const action = input.suspended ? 'copy.provider_suspend' : 'copy.provider_resume';
    await ctx.services.staff.audit(ctx.db, staff, action, { type: 'user', id: input.provider_id }, null, { suspended: result.suspended });
    return result;
  });
  route(app, ctx, api.adminCopySettings, async ({ input, staff }) => {
    const before = await social().copy.minTrades();
    const result = await social().copy.setMinTrades(input.min_trades);
    await ctx.services.staff.audit(
      ctx.db,
      staff,
      'copy.settings',
      { type: 'settings', id: 'copy_provider_min_trades' },
      { min_trades: before },
      result,
    );
    return result;
  });
  route(app, ctx, api.adminSettleCopyFees, async ({ input, staff }) => {
    const result = await social().copy.settleFees(input.period);
    await ctx.services.staff.audit(ctx.db, staff, 'copy.settle_fees', { type: 'period', id: input.period }, null, result);
    return result;
  });
}
