import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerContentAdminRoutes } from './admin-routes.ts';
import { registerManifest } from './manifest.ts';
import { registerContentRoutes } from './routes.ts';
import { ContentService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    content: ContentService;
  }
}

export const contentModule = {
  name: 'content',
  register(app: FastifyInstance, ctx: AppContext) {
    ctx.services.content = new ContentService(ctx);
    ctx.services.changes.register('settings', ctx.services.content.settingsChange);
    registerContentRoutes(app, ctx);
    registerContentAdminRoutes(app, ctx);
    registerManifest(app, ctx);
  },
};
