import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/trading';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { myDeals, viewOf } from './order-queries.ts';

/** The order calls of spec section 7. */
export function registerOrderRoutes(app: FastifyInstance, ctx: AppContext) {
  const trading = () => ctx.services.trading;

  route(app, ctx, api.submit, async ({ input, user, req }) => {
    const order = await trading().orders.submit(user, input);
    req.log.info({ userId: user.id, orderId: order.id, status: order.status }, 'order placed');
    return viewOf(ctx, order);
  });

  route(app, ctx, api.myDeal, ({ input, user }) => myDeals(ctx, user.id, input.status, input.page, input.limit));

  route(app, ctx, api.close, async ({ input, user, req }) => {
    const order = await trading().orders.closeByOwner(user, input.id);
    req.log.info({ userId: user.id, orderId: order.id, status: order.status }, 'order closed');
    return viewOf(ctx, order);
  });

  route(app, ctx, api.cancelTrade, async ({ input, user, req }) => {
    const order = await trading().orders.cancel(user.id, input.id);
    req.log.info({ userId: user.id, orderId: order.id }, 'order cancelled');
    return viewOf(ctx, order);
  });

  route(app, ctx, api.setStopPrice, async ({ input, user }) =>
    viewOf(ctx, await trading().orders.setStops(user.id, input.id, input.target_profit_price, input.stop_loss_price)),
  );
}
