import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { defineRoute } from '../../http/route.ts';
import { UserSchema } from '@tp/contract/schemas/auth';
import { findUserById, publicUser } from './user-repository.ts';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext) {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/user/info',
    auth: 'user',
    summary: 'The logged-in user',
    tags: ['account'],
    response: UserSchema,
    async handler({ user }) {
      const row = await findUserById(ctx.db, user.id);
      if (!row) throw notFound();
      return publicUser(row);
    },
  });

  defineRoute(app, ctx, {
    method: ['POST', 'GET'],
    url: '/api/user/logout',
    auth: 'user',
    summary: 'Ends this session on the server',
    tags: ['account'],
    async handler({ user }) {
      await ctx.services.sessions.revoke(user.sessionId);
      return null;
    },
  });
}
