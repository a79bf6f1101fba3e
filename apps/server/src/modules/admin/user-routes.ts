import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/admin';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import type { GroupAdminService } from './group-admin-service.ts';
import type { UserAdminService } from './user-admin-service.ts';

/** Traders' accounts as staff see them (support, risk, finance); balance adjustments are finance only. */
export function registerUserAdminRoutes(app: FastifyInstance, ctx: AppContext, users: UserAdminService) {
  route(app, ctx, api.userSearch, ({ input }) => users.search(input.q, input.page, input.limit));
  route(app, ctx, api.userProfile, ({ input }) => users.profile(input.user_id));
  route(app, ctx, api.userSessions, ({ input }) => users.sessions(input.user_id));
  route(app, ctx, api.userSessionsEnd, async ({ input, staff }) => {
    await users.endSessions(staff, input.user_id, input.session_id);
    return null;
  });
  route(app, ctx, api.userApiKeys, ({ input }) => users.apiKeys(input.user_id));
  route(app, ctx, api.userApiKeyRevoke, async ({ input, staff }) => {
    await users.revokeApiKey(staff, input.user_id, input.id);
    return null;
  });
  route(app, ctx, api.userLedger, ({ input }) => users.ledger(input.user_id, input.page, input.limit));
  route(app, ctx, api.userOrders, ({ input }) =>
    users.orders({ userId: input.user_id, statuses: input.status === undefined ? undefined : [input.status] }, input.page, input.limit),
  );
  route(app, ctx, api.userStatus, ({ input, staff }) => users.setStatus(staff, input.user_id, input.status));
  route(app, ctx, api.adjustBalance, ({ input, staff }) => users.adjustBalance(staff, input));
}

/** Account groups (risk): the list, a save (four-eyes when on), moving a user. */
export function registerGroupRoutes(app: FastifyInstance, ctx: AppContext, groups: GroupAdminService) {
  route(app, ctx, api.groupsList, () => groups.list());
  route(app, ctx, api.groupSave, ({ input, staff }) => groups.save(staff, input));
  route(app, ctx, api.userSetGroup, ({ input, staff }) => groups.setGroup(staff, input.user_id, input.group_id));
}
