import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AdminIdentityListInput,
  AdminIdentityRejectInput,
  AdminIdentitySchema,
  AdminIdentityUserInput,
} from '@tp/contract/schemas/identity';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';

const REVIEWERS = ['risk', 'support'];

export function registerIdentityAdminRoutes(app: FastifyInstance, ctx: AppContext) {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/identity/list',
    auth: 'staff',
    roles: REVIEWERS,
    input: AdminIdentityListInput,
    summary: 'Identity submissions, newest first (status 1 under review, 2 verified, 3 rejected)',
    tags: ['admin'],
    response: z.object({ data: z.array(AdminIdentitySchema), total: z.number() }),
    handler: ({ input }) => ctx.services.identity.list(input.status, input.page, input.limit),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/identity/detail',
    auth: 'staff',
    roles: REVIEWERS,
    input: AdminIdentityUserInput,
    summary: "One user's identity submission, with signed image URLs",
    tags: ['admin'],
    response: AdminIdentitySchema,
    handler: ({ input }) => ctx.services.identity.detail(input.user_id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/identity/approve',
    auth: 'staff',
    roles: REVIEWERS,
    input: AdminIdentityUserInput,
    summary: 'Approves a submission under review (1 -> 2); audited',
    tags: ['admin'],
    response: AdminIdentitySchema,
    handler: ({ input, staff }) => ctx.services.identity.approve(staff, input.user_id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/identity/reject',
    auth: 'staff',
    roles: REVIEWERS,
    input: AdminIdentityRejectInput,
    summary: 'Rejects a submission under review with a reason the user sees (1 -> 3); audited',
    tags: ['admin'],
    response: AdminIdentitySchema,
    handler: ({ input, staff }) => ctx.services.identity.reject(staff, input.user_id, input.reason),
  });
}
