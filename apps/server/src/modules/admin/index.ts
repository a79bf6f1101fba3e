import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ChangeService } from './change-service.ts';
import { DealerDesk } from './desk-service.ts';
import { FeeService } from './fee-service.ts';
import { FundingSetupService } from './funding-setup-service.ts';
import { GroupAdminService } from './group-admin-service.ts';
import { registerChangeRoutes, registerDeskRoutes, registerRiskWarningRoutes, registerStaffRoutes } from './routes.ts';
import { registerFundingSetupRoutes, registerTradingSetupRoutes } from './setup-routes.ts';
import { registerStaffAdminRoutes } from './staff-routes.ts';
import { findActiveStaff, StaffService } from './staff-service.ts';
import { StaffSignIn } from './staff-sign-in.ts';
import { TradingSetupService } from './trading-setup-service.ts';
import { UserAdminService } from './user-admin-service.ts';
import { registerGroupRoutes, registerUserAdminRoutes } from './user-routes.ts';

declare module '../../context.ts' {
  interface Services {
    staff: StaffService;
    staffSignIn: StaffSignIn;
    changes: ChangeService;
  }
}

/** Four-eyes changes: other modules' money rules register their kind of change and preview. */
export type { Applied, ChangeKind } from './change-service.ts';
export { settingsChangePreview } from './change-preview.ts';

export const adminModule = {
  name: 'admin',
  async register(app: FastifyInstance, ctx: AppContext) {
    ctx.services.staff = new StaffService(ctx);
    ctx.services.staffSignIn = new StaffSignIn(ctx);
    const totpRoles = ctx.services.staffSignIn.totpRoles;
    ctx.services.sessions.useStaffLookup((db, id) => findActiveStaff(db, id, totpRoles));
    await ctx.services.staff.bootstrap();
    const users = new UserAdminService(ctx);
    registerStaffRoutes(app, ctx);
    registerStaffAdminRoutes(app, ctx);
    registerUserAdminRoutes(app, ctx, users);
    const changes = (ctx.services.changes = new ChangeService(ctx));
    const trading = new TradingSetupService(ctx);
    const fees = new FeeService(ctx);
    changes.register('symbol', trading.symbolChange);
    changes.register('fees', fees.feesChange);
    changes.register('reversal', trading.reversalChange);
    const groups = new GroupAdminService(ctx, users);
    changes.register('group', groups.groupChange);
    registerGroupRoutes(app, ctx, groups);
    registerTradingSetupRoutes(app, ctx, { trading, users, fees });
    registerChangeRoutes(app, ctx, changes);
    registerRiskWarningRoutes(app, ctx);
    registerFundingSetupRoutes(app, ctx, new FundingSetupService(ctx));
    const desk = new DealerDesk(ctx);
    registerDeskRoutes(app, ctx, desk);
    desk.start();
    app.addHook('onClose', async () => desk.stop());
  },
};
