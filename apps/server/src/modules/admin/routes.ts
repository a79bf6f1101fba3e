import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/admin';
import type { AppContext } from '../../context.ts';
import { langOf, route } from '../../http/route.ts';
import type { ChangeService } from './change-service.ts';
import type { DealerDesk } from './desk-service.ts';

export function registerStaffRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, api.login, async ({ input, req }) => {
    const result = await ctx.services.staffSignIn.signIn(input, { ip: req.ip, lang: langOf(req) });
    const token = await ctx.services.sessions.create({ staffId: result.staffId }, { ip: req.ip, userAgent: req.headers['user-agent'] });
    req.log.info({ staffId: result.staffId, ip: req.ip }, 'staff signed in');
    const me = (await ctx.services.sessions.resolveStaff(token))!;
    return { token, staff: { id: me.id, email: me.email, name: me.name, roles: me.roles }, recovery_codes: result.recoveryCodes };
  });

  route(app, ctx, api.me, ({ staff }) => ({ id: staff.id, email: staff.email, name: staff.name, roles: staff.roles }));

  route(app, ctx, api.logout, async ({ staff }) => {
    await ctx.services.sessions.revoke(staff.sessionId);
    await ctx.services.staff.audit(ctx.db, staff, 'staff.sign_out', { type: 'staff', id: staff.id }, null, { session: staff.sessionId });
    return null;
  });
}

/** The dealer's desk (risk): the house's book, real or demo. */
export function registerDeskRoutes(app: FastifyInstance, ctx: AppContext, desk: DealerDesk) {
  route(app, ctx, api.deskExposure, ({ input }) => desk.exposure(input.demo === 1));
  route(app, ctx, api.deskClients, ({ input }) => desk.clients(input.demo === 1));
  route(app, ctx, api.deskLimits, () => desk.limitList());
  route(app, ctx, api.deskHedges, () => ctx.services.trading.hedgeBook());
  route(app, ctx, api.deskLimitSave, ({ input, staff }) =>
    desk.saveLimit(staff, input.symbol_id, input.max_net_lots, input.group_id ?? null),
  );
}

/** The regulatory profile's risk warning: computed now on a risk member's request (otherwise daily), audited. */
export function registerRiskWarningRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, api.riskWarningCompute, async ({ staff }) => {
    const trading = ctx.services.trading;
    const value = await trading.riskWarnings.compute();
    await ctx.services.staff.audit(ctx.db, staff, 'risk_warning.compute', { type: 'settings', id: 'risk_warning' }, null, { ...value });
    // As traders of a group that shows it see it.
    return { show: 1, ...value };
  });
}

/** Four-eyes changes to money rules (risk): the queue, approve, reject. */
export function registerChangeRoutes(app: FastifyInstance, ctx: AppContext, changes: ChangeService) {
  route(app, ctx, api.changesList, ({ input }) => changes.list(input.page, input.limit));
  route(app, ctx, api.changesApprove, ({ input, staff }) => changes.approve(staff, input.id));
  route(app, ctx, api.changesReject, ({ input, staff }) => changes.reject(staff, input.id, input.reason));
}
