import type { FastifyInstance } from 'fastify';
import { MyDealInput, MyDealSchema, OrderIdInput, OrderSchema, SetStopPriceInput, SubmitInput } from '@tp/contract/schemas/trading';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';
import { myDeals, viewOf } from './order-queries.ts';

/** The order calls of spec section 7; existing clients send them as GET, forms as POST. */
export function registerOrderRoutes(app: FastifyInstance, ctx: AppContext) {
  const trading = () => ctx.services.trading;
  const methods: ('GET' | 'POST')[] = ['GET', 'POST'];
  const tags = ['trading'];

  defineRoute(app, ctx, {
    method: methods,
    url: '/v1/api/forex/submit',
    input: SubmitInput,
    auth: 'user',
    summary: 'Places a market order (status 1) or a pending order at target_price (status 0)',
    tags,
    response: OrderSchema,
    async handler({ input, user, req }) {
      const order = await trading().orders.submit(user, input);
      req.log.info({ userId: user.id, orderId: order.id, status: order.status }, 'order placed');
      return viewOf(ctx, order);
    },
  });

  defineRoute(app, ctx, {
    method: methods,
    url: '/v1/api/forex/my_deal',
    input: MyDealInput,
    auth: 'user',
    summary: 'The order list: status 1 holding, 0 pending, 3 history (closed and cancelled)',
    tags,
    response: MyDealSchema,
    handler: ({ input, user }) => myDeals(ctx, user.id, input.status, input.page, input.limit),
  });

  defineRoute(app, ctx, {
    method: methods,
    url: '/v1/api/forex/close',
    input: OrderIdInput,
    auth: 'user',
    summary: 'Closes an open position at the current price',
    tags,
    response: OrderSchema,
    async handler({ input, user, req }) {
      const order = await trading().orders.closeByOwner(user, input.id);
      req.log.info({ userId: user.id, orderId: order.id, status: order.status }, 'order closed');
      return viewOf(ctx, order);
    },
  });

  defineRoute(app, ctx, {
    method: methods,
    url: '/v1/api/forex/cancel_trade',
    input: OrderIdInput,
    auth: 'user',
    summary: 'Cancels a pending order and refunds its reservation',
    tags,
    response: OrderSchema,
    async handler({ input, user, req }) {
      const order = await trading().orders.cancel(user.id, input.id);
      req.log.info({ userId: user.id, orderId: order.id }, 'order cancelled');
      return viewOf(ctx, order);
    },
  });

  defineRoute(app, ctx, {
    method: methods,
    url: '/v1/api/forex/set_stop_price',
    input: SetStopPriceInput,
    auth: 'user',
    summary: 'Sets take-profit and stop-loss of an open or pending order; 0 or empty removes one',
    tags,
    response: OrderSchema,
    async handler({ input, user }) {
      return viewOf(ctx, await trading().orders.setStops(user.id, input.id, input.target_profit_price, input.stop_loss_price));
    },
  });
}
