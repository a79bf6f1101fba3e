import type { FastifyInstance } from 'fastify';
import {
  AmendPasswordInput,
  ForgetPasswordInput,
  InviteListSchema,
  LoginInput,
  PageInput,
  RegisterInput,
  SessionSchema,
} from '@tp/contract/schemas/auth';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext) {
  const accounts = () => ctx.services.accounts;

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/user/register',
    input: RegisterInput,
    summary: 'Registers a real account by email or mobile (code, or captcha when verify_reg_type is 2) and logs in',
    tags: ['account'],
    response: SessionSchema,
    rateLimit: { max: 20, timeWindow: 60_000 },
    handler: ({ input, req }) => accounts().register(input, { ip: req.ip, userAgent: req.headers['user-agent'] }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/user/loginForU',
    input: LoginInput,
    summary: 'Logs in with account and password (login_type email or mobile), or a demo account by demo_id',
    tags: ['account'],
    response: SessionSchema,
    rateLimit: { max: 30, timeWindow: 60_000 },
    handler: ({ input, req, lang }) => accounts().login(input, { ip: req.ip, userAgent: req.headers['user-agent'], lang }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/user/forget_password',
    input: ForgetPasswordInput,
    summary: 'Sets a new password with a code sent by send_email or send_sms with type 2; ends every session',
    tags: ['account'],
    rateLimit: { max: 20, timeWindow: 60_000 },
    async handler({ input }) {
      await accounts().forgetPassword(input);
      return null;
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/user/amend_password',
    auth: 'user',
    realOnly: true,
    input: AmendPasswordInput,
    summary: "Changes the password with a code sent (type 2) to the user's own email or phone; ends every other session",
    tags: ['account'],
    rateLimit: { max: 20, timeWindow: 60_000 },
    async handler({ input, user }) {
      await accounts().amendPassword(user.id, user.sessionId, input);
      return null;
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/user/invite_list',
    auth: 'user',
    realOnly: true,
    input: PageInput,
    summary: 'Users who registered with my invite code (email and mobile masked)',
    tags: ['account'],
    response: InviteListSchema,
    handler: ({ input, user }) => accounts().invitees(user.id, input.page, input.limit),
  });
}
