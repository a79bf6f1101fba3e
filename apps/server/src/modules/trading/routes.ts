import type { FastifyInstance, FastifyReply } from 'fastify';
import * as api from '@tp/contract/endpoints/trading';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { myDeals, viewOf } from './views/order-queries.ts';
import { withDeadline } from './settlement/order-ops.ts';

/** The order calls of spec section 7. */
export function registerOrderRoutes(app: FastifyInstance, ctx: AppContext) {
  const trading = () => ctx.services.trading;
  /** The request's money transactions must start within ORDER_DEADLINE_MS of its arrival. */
  const timely = <T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T> =>
    withDeadline(Date.now() - reply.elapsedTime + ctx.config.ORDER_DEADLINE_MS, fn);

  route(app, ctx, api.submit, async ({ input, user, req, reply }) => {
    const order = await timely(reply, () => trading().orders.submit(user, input));
    req.log.info({ userId: user.id, orderId: order.id, status: order.status }, 'order placed');
    return viewOf(ctx, order);
  });

  route(app, ctx, api.riskWarning, ({ user }) => trading().riskWarnings.forUser(user));

  route(app, ctx, api.myDeal, ({ input, user }) => myDeals(ctx, user.id, input.status, input.page, input.limit));

  route(app, ctx, api.close, async ({ input, user, req, reply }) => {
    const partial = input.cont !== undefined && input.cont.trim() !== '';
    const order = await timely(reply, () =>
      partial ? trading().positions.closePart(user, input.id, input.cont!) : trading().orders.closeByOwner(user, input.id),
    );
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

  route(app, ctx, api.batchCloseByType, async ({ input, user, lang, req, reply }) => {
    const result = await timely(reply, () => trading().positions.closeByType(user, lang, input.type, input.forex_id));
    req.log.info({ userId: user.id, closed: result.closed.length, failed: result.failed.length }, 'positions closed by type');
    return { ...result, closed: result.closed.map((o) => viewOf(ctx, o)) };
  });

  route(app, ctx, api.reverse, async ({ input, user, req, reply }) => {
    const order = await timely(reply, () => trading().positions.reverse(user, input.id));
    req.log.info({ userId: user.id, from: input.id, orderId: order.id }, 'position reversed');
    return viewOf(ctx, order);
  });

  route(app, ctx, api.deal, ({ input, user }) => trading().positions.deal(user.id, input.forex_id, input, (row) => viewOf(ctx, row)));

  route(app, ctx, api.notices, ({ input, user }) => trading().positions.notices(user.id, input.page, input.limit));

  route(app, ctx, api.setTrailing, async ({ input, user }) =>
    viewOf(ctx, await trading().positions.setTrailing(user.id, input.id, input.points)),
  );

  route(app, ctx, api.alerts, ({ input, user }) => trading().alerts.list(user.id, input.page, input.limit));
  route(app, ctx, api.alertAdd, ({ input, user, lang }) => trading().alerts.add(user, lang, input));
  route(app, ctx, api.alertDelete, async ({ input, user }) => {
    await trading().alerts.remove(user.id, input.id);
    return null;
  });
}
