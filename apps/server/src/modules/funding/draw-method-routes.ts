import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BindDrawMethodInput, DrawMethodListInput, DrawMethodSchema, IdInput } from '@tp/contract/schemas/funding';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';
import type { DrawMethodService } from './draw-method-service.ts';
import { drawMethodRecord } from './records.ts';

/** The spec names bind and delete without their folder; both spellings are served. */
const withBare = (name: string) => [`/api/wallet/${name}`, `/api/${name}`];

export function registerDrawMethodRoutes(app: FastifyInstance, ctx: AppContext, methods: DrawMethodService) {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/wallet/get_draw_method',
    auth: 'user',
    realOnly: true,
    input: DrawMethodListInput,
    summary: 'The user’s bound receiving accounts (draw_type 1 coin, 2 bank; draw_id a withdrawal currency)',
    tags: ['withdraw'],
    response: z.array(DrawMethodSchema),
    async handler({ input, user }) {
      const { methods: rows, currencies } = await methods.list(user.id, { type: input.draw_type, drawCurrencyId: input.draw_id });
      return rows.map((m) => drawMethodRecord(m, currencies.get(m.drawCurrencyId)));
    },
  });

  for (const url of withBare('bind_draw_method')) {
    defineRoute(app, ctx, {
      method: 'POST',
      url,
      auth: 'user',
      realOnly: true,
      input: BindDrawMethodInput,
      summary: 'Binds a coin address (dc_address) or a bank account to a withdrawal currency (draw_id)',
      tags: ['withdraw'],
      response: DrawMethodSchema,
      async handler({ input, user }) {
        const { method, currency } = await methods.bind(user.id, {
          type: input.type,
          drawCurrencyId: input.draw_id,
          dcAddress: input.dc_address,
          bankName: input.bank_name,
          bankAddress: input.bank_address,
          bankSwift: input.bank_swift,
          payeeName: input.payee_name,
          payeeAccount: input.payee_account,
        });
        return drawMethodRecord(method, currency);
      },
    });
  }

  for (const url of withBare('del_draw_method')) {
    defineRoute(app, ctx, {
      method: 'POST',
      url,
      auth: 'user',
      realOnly: true,
      input: IdInput,
      summary: 'Deletes one of the user’s receiving accounts',
      tags: ['withdraw'],
      async handler({ input, user }) {
        await methods.remove(user.id, input.id);
        return null;
      },
    });
  }
}
