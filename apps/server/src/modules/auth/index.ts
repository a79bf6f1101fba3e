import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { setAuthenticators } from '../../http/route.ts';
import { registerAuthRoutes } from './routes.ts';
import { SessionService } from './session-service.ts';

declare module '../../context.ts' {
  interface Services {
    sessions: SessionService;
  }
}

export const authModule = {
  name: 'auth',
  register(app: FastifyInstance, ctx: AppContext) {
    const sessions = new SessionService(ctx);
    ctx.services.sessions = sessions;
    setAuthenticators({ user: (t) => sessions.resolveUser(t), staff: (t) => sessions.resolveStaff(t) });
    registerAuthRoutes(app, ctx);
  },
};
