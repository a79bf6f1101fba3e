import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/identity';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

export function registerIdentityRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, api.realName, async ({ input, user }) => {
    await ctx.services.identity.submit(user.id, input);
    return null;
  });
  route(app, ctx, api.identityCenter, ({ user }) => ctx.services.identity.center(user.id));
}
