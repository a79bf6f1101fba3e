import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerSocialRoutes } from './routes.ts';
import { SocialService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    social: SocialService;
  }
}

export const socialModule = {
  name: 'social',
  register(app: FastifyInstance, ctx: AppContext) {
    ctx.services.social = new SocialService(ctx);
    registerSocialRoutes(app, ctx);
  },
};
