import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/support';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

export function registerSupportRoutes(app: FastifyInstance, ctx: AppContext) {
  const chat = () => ctx.services.support;

  route(app, ctx, api.sendChatMessage, ({ input, user }) => chat().sendFromUser(user.id, input));
  route(app, ctx, api.chatHistory, ({ input, user }) => chat().history(user.id, 'user', input));
  route(app, ctx, api.chatUnread, ({ user }) => chat().unread(user.id));
  route(app, ctx, api.submitFeedback, ({ input, user }) => ctx.services.feedback.submit(user?.id ?? null, input));

  route(app, ctx, api.conversations, ({ input }) => chat().conversations(input));
  route(app, ctx, api.staffChatHistory, ({ input }) => chat().history(input.user_id, 'staff', input));
  route(app, ctx, api.staffSendChatMessage, ({ input, staff }) => chat().sendFromStaff(staff, input.user_id, input));
  route(app, ctx, api.feedbackList, ({ input }) => ctx.services.feedback.list(input));
  route(app, ctx, api.resolveFeedback, ({ input, staff }) => ctx.services.feedback.resolve(staff, input.id));
}
