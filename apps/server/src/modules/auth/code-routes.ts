import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/auth';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { destinationOf } from './destination.ts';

export function registerCodeRoutes(app: FastifyInstance, ctx: AppContext) {
  for (const [endpoint, channel] of [
    [api.sendEmail, 'email'],
    [api.sendSms, 'mobile'],
  ] as const) {
    route(app, ctx, endpoint, async ({ input, lang }) => {
      const dest = await destinationOf(ctx.db, channel, input.to, input.area_id);
      await ctx.services.codes.send(dest, input.type, lang);
      return null;
    });
  }

  for (const endpoint of [api.captcha, api.captchaAlias]) route(app, ctx, endpoint, () => ctx.services.captcha.create());
}
