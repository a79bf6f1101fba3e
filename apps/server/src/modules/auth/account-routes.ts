import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/auth';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext) {
  const accounts = () => ctx.services.accounts;

  route(app, ctx, api.register, ({ input, req }) => accounts().register(input, { ip: req.ip, userAgent: req.headers['user-agent'] }));
  for (const endpoint of [api.login, api.loginAlias])
    route(app, ctx, endpoint, ({ input, req, lang }) =>
      accounts().login(input, { ip: req.ip, userAgent: req.headers['user-agent'], lang }),
    );
  route(app, ctx, api.forgetPassword, async ({ input, lang }) => {
    await accounts().forgetPassword(input, lang);
    return null;
  });
  route(app, ctx, api.amendPassword, async ({ input, user, lang }) => {
    await accounts().amendPassword(user.id, user.sessionId, input, lang);
    return null;
  });
  route(app, ctx, api.inviteList, ({ input, user }) => accounts().invitees(user.id, input.page, input.limit));
}
