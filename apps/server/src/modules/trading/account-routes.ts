import type { FastifyInstance } from 'fastify';
import { AccountLogSchema, BalanceSchema, DemoAccountSchema, ForexDetailSchema, PageInput } from '@tp/contract/schemas/trading';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';

/** Balance, account figures, account log and demo accounts. */
export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext) {
  const trading = () => ctx.services.trading;
  const methods: ('GET' | 'POST')[] = ['GET', 'POST'];

  defineRoute(app, ctx, {
    method: methods,
    url: '/v1/api/main/wallet/getBalance',
    auth: 'user',
    summary: 'Free balance and locked margin (USD)',
    tags: ['account'],
    response: BalanceSchema,
    handler: ({ user }) => trading().accounts.balance(user.id),
  });

  defineRoute(app, ctx, {
    method: methods,
    url: '/v1/api/main/account/forexDetail',
    auth: 'user',
    summary: 'Account figures: balance, lock_balance, equity, floating profit, risk rate, prepayment ratio, available prepayment',
    tags: ['account'],
    response: ForexDetailSchema,
    handler: ({ user }) => trading().accounts.forexDetail(user.id),
  });

  defineRoute(app, ctx, {
    method: methods,
    url: '/v1/api/main/accountLog/forexChange',
    input: PageInput,
    auth: 'user',
    summary: 'Account log: every movement of the balance, newest first, with a translated memo',
    tags: ['account'],
    response: AccountLogSchema,
    handler: ({ input, user, lang }) => trading().accounts.accountLog(user.id, lang, input.page, input.limit),
  });

  defineRoute(app, ctx, {
    method: methods,
    url: '/api/user/createAccountDemoForU',
    summary: 'Creates a demo account with the initial demo balance; log in with its demo_id',
    tags: ['account'],
    response: DemoAccountSchema,
    rateLimit: { max: ctx.config.DEMO_CREATE_RATE_LIMIT, timeWindow: 60_000 },
    handler: () => trading().demo.create(),
  });

  defineRoute(app, ctx, {
    method: methods,
    url: '/v1/api/main/user/resetForexDemoAccount',
    auth: 'user',
    summary: 'Demo accounts only: closes everything and restores the initial balance',
    tags: ['account'],
    response: BalanceSchema.omit({ currency: true }),
    handler: ({ user }) => trading().demo.reset(user),
  });
}
