import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AuditListInput,
  AuditRowSchema,
  DashboardSchema,
  pageOf,
  StaffCreateInput,
  StaffRolesInput,
  StaffSchema,
  StaffStatusInput,
  RecoveryCodesSchema,
  TotpEnableInput,
  TotpSetupSchema,
} from '@tp/contract/schemas/admin';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';
import { listAudit } from './audit-repository.ts';
import { dashboard } from './dashboard-service.ts';

/** TOTP enrolment (any staff), staff management and the audit log (admin), the dashboard (any staff). */
export function registerStaffAdminRoutes(app: FastifyInstance, ctx: AppContext) {
  const staffService = () => ctx.services.staff;
  const adminOnly = { auth: 'staff' as const, roles: ['admin'], tags: ['admin'] };

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/totp/setup',
    auth: 'staff',
    tags: ['admin'],
    summary: 'Starts two-factor enrolment: a new secret and its otpauth URL (shown as a QR code)',
    response: TotpSetupSchema,
    handler: ({ staff }) => ctx.services.staffSignIn.setup(staff),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/totp/enable',
    auth: 'staff',
    tags: ['admin'],
    input: TotpEnableInput,
    summary: 'Turns two-factor sign-in on with a code from the authenticator; afterwards login requires totp. Answers the one-time recovery codes, shown once',
    response: RecoveryCodesSchema,
    handler: async ({ staff, input }) => ({ recovery_codes: await ctx.services.staffSignIn.enable(staff, input.code) }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/totp/recovery_codes',
    auth: 'staff',
    tags: ['admin'],
    input: TotpEnableInput,
    summary: 'New one-time recovery codes (the previous ones stop working), confirmed with a current TOTP code; shown once',
    response: RecoveryCodesSchema,
    handler: async ({ staff, input }) => ({ recovery_codes: await ctx.services.staffSignIn.renewRecoveryCodes(staff, input.code) }),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/dashboard',
    auth: 'staff',
    tags: ['admin'],
    summary: 'Users, review queues, open positions and net exposure per symbol, house profit and fees today, risk events today',
    response: DashboardSchema,
    handler: () => dashboard(ctx),
  });

  defineRoute(app, ctx, {
    ...adminOnly,
    method: 'GET',
    url: '/api/admin/staff/list',
    summary: 'All staff accounts',
    response: z.array(StaffSchema),
    handler: () => staffService().list(),
  });

  defineRoute(app, ctx, {
    ...adminOnly,
    method: 'POST',
    url: '/api/admin/staff/create',
    input: StaffCreateInput,
    summary: 'Creates a staff account with roles (admin, finance, risk, support, content)',
    response: StaffSchema,
    handler: ({ staff, input }) => staffService().create(staff, input),
  });

  defineRoute(app, ctx, {
    ...adminOnly,
    method: 'POST',
    url: '/api/admin/staff/roles',
    input: StaffRolesInput,
    summary: "Replaces a staff member's roles",
    response: StaffSchema,
    handler: ({ staff, input }) => staffService().updateRoles(staff, input.id, input.roles),
  });

  defineRoute(app, ctx, {
    ...adminOnly,
    method: 'POST',
    url: '/api/admin/staff/status',
    input: StaffStatusInput,
    summary: 'Disables (0, ending the sessions) or enables (1) a staff account',
    response: StaffSchema,
    handler: ({ staff, input }) => staffService().setStatus(staff, input.id, input.status),
  });

  defineRoute(app, ctx, {
    ...adminOnly,
    method: 'GET',
    url: '/api/admin/audit/list',
    input: AuditListInput,
    summary: 'The staff audit log, newest first, filtered by staff, action or target',
    response: pageOf(AuditRowSchema),
    handler: ({ input }) =>
      listAudit(ctx.db, { staffId: input.staff_id, action: input.action, targetType: input.target_type, targetId: input.target_id }, input.page, input.limit),
  });
}
