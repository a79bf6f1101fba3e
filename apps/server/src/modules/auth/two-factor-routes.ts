import type { FastifyInstance } from 'fastify';
import { TotpSetupSchema } from '@tp/contract/schemas/admin';
import { TotpCodeInput, TotpStatusSchema } from '@tp/contract/schemas/auth';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';

/** The user center's two-factor page: status, setup (QR code), turn on and off with a code. Real accounts only. */
export function registerTwoFactorRoutes(app: FastifyInstance, ctx: AppContext) {
  const common = { auth: 'user' as const, realOnly: true, tags: ['account'] };
  const twoFactor = () => ctx.services.twoFactor;

  defineRoute(app, ctx, {
    ...common,
    method: 'GET',
    url: '/api/user/totp/status',
    summary: 'Whether two-factor sign-in is on',
    response: TotpStatusSchema,
    handler: ({ user }) => twoFactor().status(user),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'POST',
    url: '/api/user/totp/setup',
    summary: 'A secret and its otpauth URL (shown as a QR code); not required until turned on with a code',
    response: TotpSetupSchema,
    handler: ({ user }) => twoFactor().setup(user),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'POST',
    url: '/api/user/totp/enable',
    input: TotpCodeInput,
    summary: 'Turns two-factor sign-in on with a code from the authenticator; login and withdrawals then need a code',
    rateLimit: { max: 20, timeWindow: 60_000 },
    async handler({ user, input }) {
      await twoFactor().enable(user, input.code);
      return null;
    },
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'POST',
    url: '/api/user/totp/disable',
    input: TotpCodeInput,
    summary: 'Turns two-factor sign-in off with a current code',
    rateLimit: { max: 20, timeWindow: 60_000 },
    async handler({ user, input }) {
      await twoFactor().disable(user, input.code);
      return null;
    },
  });
}
