import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/partners';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { findUserById } from '../auth/index.ts';
import type { PartnerService } from './service.ts';

/** The partner area (the partner's own figures only: every query is by the session's user) and the back office's partner screens. */
export function registerPartnerRoutes(app: FastifyInstance, ctx: AppContext, partners: PartnerService) {
  route(app, ctx, api.apply, ({ user }) => partners.apply(user.id));
  route(app, ctx, api.summary, async ({ user, req }) => {
    const row = await findUserById(ctx.db, user.id);
    const code = row?.inviteCode ?? '';
    const origin = `${req.protocol}://${req.host}`;
    return { ...(await partners.summary(user.id)), code, link: `${origin}/register?invite_code=${encodeURIComponent(code)}` };
  });
  route(app, ctx, api.clients, ({ user, input }) => partners.clients(user.id, input.page, input.limit));
  route(app, ctx, api.commissions, ({ user, input }) => partners.commissions(user.id, input.page, input.limit));
  route(app, ctx, api.payouts, ({ user, input }) => partners.payouts(user.id, undefined, input.page, input.limit));
  route(app, ctx, api.requestPayout, ({ user, input }) => partners.requestPayout(user.id, input.amount));

  route(app, ctx, api.adminList, ({ input }) => partners.list(input.status, input.page, input.limit));
  route(app, ctx, api.adminApprove, ({ input, staff }) =>
    partners.review(staff, input.user_id, input.approve === 1, input.plan_id, input.note),
  );
  route(app, ctx, api.adminPlans, () => partners.plans());
  route(app, ctx, api.adminSavePlan, ({ input, staff }) => partners.savePlan(staff, input));
  route(app, ctx, api.adminSetPlan, ({ input, staff }) => partners.setPlan(staff, input.user_id, input.plan_id));
  route(app, ctx, api.adminTree, () => partners.tree());
  route(app, ctx, api.adminCommissions, ({ input }) =>
    partners.adminCommissions(input.user_id, input.clawbacks === 1, input.page, input.limit),
  );
  route(app, ctx, api.adminPayouts, ({ input }) => partners.payouts(undefined, input.status, input.page, input.limit));
  route(app, ctx, api.adminSchedules, () => partners.schedules());
  route(app, ctx, api.adminSaveSchedule, ({ input, staff }) => partners.saveSchedule(staff, input));
  route(app, ctx, api.adminReviewPayout, ({ input, staff }) => partners.reviewPayout(staff, input.id, input.approve === 1));
}
