import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/auth';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { findUserById, publicUser } from './user-repository.ts';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, api.userInfo, async ({ user }) => {
    const row = await findUserById(ctx.db, user.id);
    if (!row) throw notFound();
    return publicUser(row);
  });

  route(app, ctx, api.logout, async ({ user }) => {
    await ctx.services.sessions.revoke(user.sessionId);
    return null;
  });
}
