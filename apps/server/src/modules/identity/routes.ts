import type { FastifyInstance } from 'fastify';
import { IdentityCenterSchema, RealNameInput } from '@tp/contract/schemas/identity';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';

export function registerIdentityRoutes(app: FastifyInstance, ctx: AppContext) {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/user_real/real_name',
    auth: 'user',
    realOnly: true,
    input: RealNameInput,
    summary:
      'Submits identity for review: name, card_id and the front and back images (URLs from image_upload); again only after a rejection',
    tags: ['identity'],
    rateLimit: { max: 20, timeWindow: 60_000 },
    async handler({ input, user }) {
      await ctx.services.identity.submit(user.id, input);
      return null;
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/user_real/center',
    auth: 'user',
    realOnly: true,
    summary: 'Identity status: review_status 0 not submitted, 1 under review, 2 verified, 3 rejected (reject_reason)',
    tags: ['identity'],
    response: IdentityCenterSchema,
    handler: ({ user }) => ctx.services.identity.center(user.id),
  });
}
