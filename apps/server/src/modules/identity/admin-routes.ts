import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/identity';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

export function registerIdentityAdminRoutes(app: FastifyInstance, ctx: AppContext) {
  const identity = () => ctx.services.identity;
  route(app, ctx, api.adminIdentityList, ({ input }) => identity().list(input.status, input.page, input.limit));
  route(app, ctx, api.adminIdentityDetail, ({ input }) => identity().detail(input.user_id));
  route(app, ctx, api.adminIdentityApprove, ({ input, staff }) => identity().approve(staff, input.user_id));
  route(app, ctx, api.adminIdentityReject, ({ input, staff }) => identity().reject(staff, input.user_id, input.reason));
}
