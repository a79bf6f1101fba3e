import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/funding';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import type { DrawMethodService } from './draw-method-service.ts';
import { drawMethodRecord } from './records.ts';

export function registerDrawMethodRoutes(app: FastifyInstance, ctx: AppContext, methods: DrawMethodService) {
  route(app, ctx, api.drawMethods, async ({ input, user }) => {
    const { methods: rows, currencies } = await methods.list(user.id, { type: input.draw_type, drawCurrencyId: input.draw_id });
    return rows.map((m) => drawMethodRecord(m, currencies.get(m.drawCurrencyId)));
  });

  for (const bind of [api.bindDrawMethod, api.bindDrawMethodBare]) {
    route(app, ctx, bind, async ({ input, user }) => {
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
    });
  }

  for (const remove of [api.deleteDrawMethod, api.deleteDrawMethodBare]) {
    route(app, ctx, remove, async ({ input, user }) => {
      await methods.remove(user.id, input.id);
      return null;
    });
  }
}
