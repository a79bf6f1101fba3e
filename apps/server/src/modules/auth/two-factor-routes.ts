import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/auth';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

/** The user center's two-factor page: status, setup (QR code), turn on and off with a code. Real accounts only. */
export function registerTwoFactorRoutes(app: FastifyInstance, ctx: AppContext) {
  const twoFactor = () => ctx.services.twoFactor;

  route(app, ctx, api.totpStatus, ({ user }) => twoFactor().status(user));
  route(app, ctx, api.totpSetup, ({ user }) => twoFactor().setup(user));
  // Turning on and off differ only in the service call: both check a current code and answer null.
  for (const [endpoint, turn] of [
    [api.totpEnable, 'enable'],
    [api.totpDisable, 'disable'],
  ] as const) {
    route(app, ctx, endpoint, async ({ user, input, lang }) => {
      await twoFactor()[turn](user, input.code, lang);
      return null;
    });
  }
}
