import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/trading';
import type { AppContext } from '../../../context.ts';
import { route } from '../../../http/route.ts';

/** Balance, account figures, account log and demo accounts. */
export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext) {
  const trading = () => ctx.services.trading;
  route(app, ctx, api.getBalance, ({ user }) => trading().accounts.balance(user.id));
  route(app, ctx, api.forexDetail, ({ user }) => trading().accounts.forexDetail(user.id));
  route(app, ctx, api.accountLog, ({ input, user, lang }) => trading().accounts.accountLog(user.id, lang, input.page, input.limit));
  route(app, ctx, api.statement, ({ input, user, lang }) => trading().statements.statement(user.id, lang, input.start, input.end));
  route(app, ctx, api.createDemoAccount, () => trading().demo.create(), {
    rateLimit: { max: ctx.config.DEMO_CREATE_RATE_LIMIT, timeWindow: 60_000 },
  });
  route(app, ctx, api.resetDemoAccount, ({ user }) => trading().demo.reset(user));
}
