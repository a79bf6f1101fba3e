import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/auth';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

/** The user centre's API keys: create (shown once), list, revoke. No key reaches these calls. */
export function registerApiKeyRoutes(app: FastifyInstance, ctx: AppContext) {
  const keys = () => ctx.services.apiKeys;
  route(app, ctx, api.apiKeyCreate, ({ user, input, lang }) => keys().create(user, input, lang));
  route(app, ctx, api.apiKeyList, ({ user }) => keys().list(user.id));
  route(app, ctx, api.apiKeyRevoke, async ({ user, input }) => {
    await keys().revoke(user.id, input.id);
    return null;
  });
}
