import type { FastifyInstance } from 'fastify';
import { STAFF_TOTP_REQUIRED, STAFF_TOTP_SETUP, StaffLoginAnswer } from '@tp/contract/schemas/admin';
import { StaffLoginInput } from '@tp/contract/schemas/auth';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';

export function registerStaffRoutes(app: FastifyInstance, ctx: AppContext) {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/login',
    input: StaffLoginInput,
    summary: `Staff sign-in: email, password, then totp (or a recovery_code). Code ${STAFF_TOTP_REQUIRED} asks for the code; code ${STAFF_TOTP_SETUP} (roles that move money, first sign-in) answers {secret, otpauth_url} to set it up. Failures are throttled per account`,
    tags: ['admin'],
    rateLimit: { max: 10, timeWindow: 60_000 },
    response: StaffLoginAnswer,
    async handler({ input, req }) {
      const result = await ctx.services.staffSignIn.signIn(input);
      const token = await ctx.services.sessions.create({ staffId: result.staffId }, { ip: req.ip, userAgent: req.headers['user-agent'] });
      req.log.info({ staffId: result.staffId, ip: req.ip }, 'staff signed in');
      const me = (await ctx.services.sessions.resolveStaff(token))!;
      return { token, staff: { id: me.id, email: me.email, name: me.name, roles: me.roles }, recovery_codes: result.recoveryCodes };
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
