import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/admin';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { listAudit } from './audit-repository.ts';
import { dashboard } from './dashboard-service.ts';

/** TOTP enrolment (any staff), staff management and the audit log (admin), the dashboard (any staff). */
export function registerStaffAdminRoutes(app: FastifyInstance, ctx: AppContext) {
  const staffService = () => ctx.services.staff;
  const signIn = () => ctx.services.staffSignIn;

  route(app, ctx, api.totpSetup, ({ staff }) => signIn().setup(staff));
  route(app, ctx, api.totpEnable, async ({ staff, input }) => ({ recovery_codes: await signIn().enable(staff, input.code) }));
  route(app, ctx, api.totpRecoveryCodes, async ({ staff, input }) => ({
    recovery_codes: await signIn().renewRecoveryCodes(staff, input.code),
  }));
  route(app, ctx, api.dashboard, () => dashboard(ctx));
  route(app, ctx, api.staffList, () => staffService().list());
  route(app, ctx, api.staffCreate, ({ staff, input }) => staffService().create(staff, input));
  route(app, ctx, api.staffRoles, ({ staff, input }) => staffService().updateRoles(staff, input.id, input.roles));
  route(app, ctx, api.staffStatus, ({ staff, input }) => staffService().setStatus(staff, input.id, input.status));
  route(app, ctx, api.auditList, ({ input }) =>
    listAudit(
      ctx.db,
      { staffId: input.staff_id, action: input.action, targetType: input.target_type, targetId: input.target_id },
      input.page,
      input.limit,
    ),
  );
}
