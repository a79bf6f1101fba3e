import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerWebPushRoutes } from './routes.ts';
import { WebPushService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    /** Notices and fired price alerts sent to the trader's devices (Web Push), queued after commit. */
    webPush: WebPushService;
  }
}

export const webPushModule = {
  name: 'web-push',
  register(app: FastifyInstance, ctx: AppContext) {
    const service = new WebPushService(ctx);
    ctx.services.webPush = service;
    registerWebPushRoutes(app, ctx);
    ctx.background.push({
      name: 'web-push',
      start() {},
      // What was queued before shutdown still goes out (each message waits at most its send timeout).
      stop: () => service.settled(),
    });
  },
};
