import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerStaffRoutes } from './routes.ts';
import { StaffService } from './staff-service.ts';

declare module '../../context.ts' {
  interface Services {
    staff: StaffService;
  }
}

export const adminModule = {
  name: 'admin',
  async register(app: FastifyInstance, ctx: AppContext) {
    ctx.services.staff = new StaffService(ctx);
    await ctx.services.staff.bootstrap();
    registerStaffRoutes(app, ctx);
  },
};
