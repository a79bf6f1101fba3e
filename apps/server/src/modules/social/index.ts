import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { BusChannels } from '../../platform/bus-channels.ts';
import { registerSocialRoutes } from './routes.ts';
import { SocialService } from './service.ts';

/** How people are named to others without being contactable (masked e-mail and mobile). */
export { maskEmail, maskMobile } from './mask.ts';

declare module '../../context.ts' {
  interface Services {
    social: SocialService;
  }
}

export const socialModule = {
  name: 'social',
  register(app: FastifyInstance, ctx: AppContext) {
    const social = new SocialService(ctx);
    ctx.services.social = social;
    // A new minimum of trades shows at once on every server, not after the cached minute.
    ctx.bus.subscribe(BusChannels.settingsChanged, (message) => {
      const keys = (message as { keys?: unknown } | null)?.keys;
      if (Array.isArray(keys) && keys.includes('ranking_min_trades')) social.clearRankingCache();
    });
    registerSocialRoutes(app, ctx);
    // A subscription paused for an unpaid fee is in the follower's notifications.
    ctx.services.trading.accountNotices.addSource((userId, limit) => social.copy.subFees.notices(userId, limit));
    // The copier and the performance fee run on the elected leader (any server takes the calls).
    ctx.background.push({
      name: 'copy-trading',
      leaderOnly: true,
      start: () => {
        social.copy.copier.start();
        social.copy.startFees();
      },
      stop: async () => {
        social.copy.stopFees();
        await social.copy.copier.stop();
      },
    });
  },
};
