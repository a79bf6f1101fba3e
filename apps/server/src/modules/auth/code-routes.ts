import type { FastifyInstance } from 'fastify';
import { CaptchaSchema, SendCodeInput, type SendCodeInputValue } from '@tp/contract/schemas/auth';
import type { LangCode } from '@tp/contract/languages';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';
import { destinationOf } from './destination.ts';

const CODE_SENDS_PER_IP_PER_MINUTE = 10;

export function registerCodeRoutes(app: FastifyInstance, ctx: AppContext) {
  const send = async (type: 'email' | 'mobile', input: SendCodeInputValue, lang: LangCode) => {
    const dest = await destinationOf(ctx.db, type, input.to, input.area_id);
    await ctx.services.codes.send(dest, input.type, lang);
    return null;
  };

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/notify/send_email',
    input: SendCodeInput,
    summary: 'Emails a 6-digit code (type 1 register, 2 reset); answers alike whether or not the account exists',
    tags: ['account'],
    rateLimit: { max: CODE_SENDS_PER_IP_PER_MINUTE, timeWindow: 60_000 },
    handler: ({ input, lang }) => send('email', input, lang),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/notify/send_sms',
    input: SendCodeInput,
    summary: 'Texts a 6-digit code to area_id + to (type 1 register, 2 reset); answers alike whether or not the account exists',
    tags: ['account'],
    rateLimit: { max: CODE_SENDS_PER_IP_PER_MINUTE, timeWindow: 60_000 },
    handler: ({ input, lang }) => send('mobile', input, lang),
  });

  for (const url of ['/api/user/captcha', '/api/captcha']) {
    defineRoute(app, ctx, {
      method: 'GET',
      url,
      summary: 'A new image captcha: id, and b64s a PNG data URL; answered in register (key + captcha or sms_code)',
      tags: ['account'],
      response: CaptchaSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
      handler: () => ctx.services.captcha.create(),
    });
  }
}
