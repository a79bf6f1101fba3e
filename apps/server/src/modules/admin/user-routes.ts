import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AdjustBalanceInput,
  AdjustBalanceSchema,
  AdminOrderSchema,
  AdminUserSchema,
  EndSessionsInput,
  LedgerEntrySchema,
  pageOf,
  UserIdInput,
  UserOrdersInput,
  UserPageInput,
  UserSearchInput,
  UserSessionSchema,
  UserStatusInput,
} from '@tp/contract/schemas/admin';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';
import type { UserAdminService } from './user-admin-service.ts';

/** Traders' accounts as staff see them (support, risk, finance); balance adjustments are finance only. */
export function registerUserAdminRoutes(app: FastifyInstance, ctx: AppContext, users: UserAdminService) {
  const common = { auth: 'staff' as const, roles: ['support', 'risk', 'finance'], tags: ['admin'] };

  defineRoute(app, ctx, {
    ...common,
    method: 'GET',
    url: '/api/admin/users/search',
    input: UserSearchInput,
    summary: 'Users whose email or mobile contains q, or whose uid or id is q; newest first',
    response: pageOf(AdminUserSchema),
    handler: ({ input }) => users.search(input.q, input.page, input.limit),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'GET',
    url: '/api/admin/users/profile',
    input: UserIdInput,
    summary: "A user's profile with balances and identity review status",
    response: AdminUserSchema,
    handler: ({ input }) => users.profile(input.user_id),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'GET',
    url: '/api/admin/users/sessions',
    input: UserIdInput,
    summary: "A user's open sessions",
    response: z.array(UserSessionSchema),
    handler: ({ input }) => users.sessions(input.user_id),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'POST',
    url: '/api/admin/users/sessions/end',
    input: EndSessionsInput,
    summary: 'Ends one session (session_id) or all sessions of a user',
    async handler({ input, staff }) {
      await users.endSessions(staff, input.user_id, input.session_id);
      return null;
    },
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'GET',
    url: '/api/admin/users/ledger',
    input: UserPageInput,
    summary: "A user's ledger entries (cash and locked), newest first",
    response: pageOf(LedgerEntrySchema),
    handler: ({ input }) => users.ledger(input.user_id, input.page, input.limit),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'GET',
    url: '/api/admin/users/orders',
    input: UserOrdersInput,
    summary: "A user's orders of any status (or of one: 0 pending, 1 open, 3 closed, 4 cancelled), newest first",
    response: pageOf(AdminOrderSchema),
    handler: ({ input }) => users.orders({ userId: input.user_id, statuses: input.status === undefined ? undefined : [input.status] }, input.page, input.limit),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'POST',
    url: '/api/admin/users/status',
    input: UserStatusInput,
    summary: 'Disables (0; ends every session) or enables (1) a user',
    response: AdminUserSchema,
    handler: ({ input, staff }) => users.setStatus(staff, input.user_id, input.status),
  });

  defineRoute(app, ctx, {
    ...common,
    roles: ['finance'],
    method: 'POST',
    url: '/api/admin/users/adjust_balance',
    input: AdjustBalanceInput,
    summary: "Adds (positive) or takes (negative) an amount from the user's balance with a reason; once per key; never below zero",
    response: AdjustBalanceSchema,
    handler: ({ input, staff }) => users.adjustBalance(staff, input),
  });
}
