import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { STAFF_TOTP_REQUIRED } from '@tp/contract/schemas/admin';
import { StaffLoginInput } from '@tp/contract/schemas/auth';
import type { AppContext } from '../../context.ts';
import { AppError, fail } from '../../http/errors.ts';
import { defineRoute } from '../../http/route.ts';

export function registerStaffRoutes(app: FastifyInstance, ctx: AppContext) {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/login',
    input: StaffLoginInput,
    summary: `Staff sign-in (email, password, TOTP code when enabled; code ${STAFF_TOTP_REQUIRED} asks for the code)`,
    tags: ['admin'],
    rateLimit: { max: 10, timeWindow: 60_000 },
    response: z.object({ token: z.string(), staff: z.object({ id: z.number(), email: z.string(), name: z.string(), roles: z.array(z.string()) }) }),
    async handler({ input, req }) {
      const result = await ctx.services.staff.authenticate(input.email, input.password, input.totp);
      if (!result.ok) throw result.needTotp ? new AppError(STAFF_TOTP_REQUIRED, 'totp_required') : fail('login_failed');
      const token = await ctx.services.sessions.create({ staffId: result.staffId }, { ip: req.ip, userAgent: req.headers['user-agent'] });
      req.log.info({ staffId: result.staffId, ip: req.ip }, 'staff signed in');
      const me = (await ctx.services.sessions.resolveStaff(token))!;
      return { token, staff: { id: me.id, email: me.email, name: me.name, roles: me.roles } };
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/me',
    auth: 'staff',
    summary: 'The signed-in staff member',
    tags: ['admin'],
    handler: ({ staff }) => ({ id: staff.id, email: staff.email, name: staff.name, roles: staff.roles }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/logout',
    auth: 'staff',
    summary: 'Ends the staff session',
    tags: ['admin'],
    async handler({ staff }) {
      await ctx.services.sessions.revoke(staff.sessionId);
      return null;
    },
  });
}
