import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pageOf } from '@tp/contract/schemas/content';
import {
  AdminChatHistoryInput,
  AdminChatSendInput,
  ChatHistoryInput,
  ChatHistorySchema,
  ChatMessageSchema,
  ChatSendInput,
  ChatUnreadSchema,
  ConversationListInput,
  ConversationSchema,
  FeedbackIdInput,
  FeedbackListInput,
  FeedbackSchema,
  FeedbackSubmitInput,
} from '@tp/contract/schemas/support';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';

export function registerSupportRoutes(app: FastifyInstance, ctx: AppContext) {
  const chat = () => ctx.services.support;

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/support/send',
    auth: 'user',
    input: ChatSendInput,
    summary: 'Sends a message to support: body and/or image_url (from POST /api/common/image_upload); pushed as CHAT',
    tags: ['support'],
    rateLimit: { max: 60, timeWindow: 60_000 },
    response: ChatMessageSchema,
    handler: ({ input, user }) => chat().sendFromUser(user.id, input),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/support/history',
    auth: 'user',
    input: ChatHistoryInput,
    summary: 'The conversation with support, oldest first, `limit` messages before before_id; marks staff messages read',
    tags: ['support'],
    response: ChatHistorySchema,
    handler: ({ input, user }) => chat().history(user.id, 'user', input),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/support/unread',
    auth: 'user',
    summary: 'How many support messages the user has not read',
    tags: ['support'],
    response: ChatUnreadSchema,
    handler: ({ user }) => chat().unread(user.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/feedback/submit',
    auth: 'optional',
    input: FeedbackSubmitInput,
    summary: 'Feedback form: content (up to 2000 characters) and an optional contact',
    tags: ['support'],
    rateLimit: { max: 10, timeWindow: 60_000 },
    response: z.object({ id: z.number().int() }),
    handler: ({ input, user }) => ctx.services.feedback.submit(user?.id ?? null, input),
  });

  const desk = { auth: 'staff' as const, roles: ['support'], tags: ['admin'] };

  defineRoute(app, ctx, {
    ...desk,
    method: 'GET',
    url: '/api/admin/support/conversations',
    input: ConversationListInput,
    summary: 'Users who have chatted, newest last message first, with unread counts',
    response: pageOf(ConversationSchema),
    handler: ({ input }) => chat().conversations(input),
  });

  defineRoute(app, ctx, {
    ...desk,
    method: 'GET',
    url: '/api/admin/support/history',
    input: AdminChatHistoryInput,
    summary: "A user's conversation, oldest first, before before_id; marks the user's messages read by staff",
    response: ChatHistorySchema,
    handler: ({ input }) => chat().history(input.user_id, 'staff', input),
  });

  defineRoute(app, ctx, {
    ...desk,
    method: 'POST',
    url: '/api/admin/support/send',
    input: AdminChatSendInput,
    summary: 'Answers a user: body and/or image_url; pushed to the user as CHAT',
    response: ChatMessageSchema,
    handler: ({ input, staff }) => chat().sendFromStaff(staff, input.user_id, input),
  });

  defineRoute(app, ctx, {
    ...desk,
    method: 'GET',
    url: '/api/admin/feedback/list',
    input: FeedbackListInput,
    summary: 'Feedback, newest first; status 0 open, 1 resolved',
    response: pageOf(FeedbackSchema),
    handler: ({ input }) => ctx.services.feedback.list(input),
  });

  defineRoute(app, ctx, {
    ...desk,
    method: 'POST',
    url: '/api/admin/feedback/resolve',
    input: FeedbackIdInput,
    summary: 'Marks feedback resolved (once)',
    handler: ({ input, staff }) => ctx.services.feedback.resolve(staff, input.id),
  });
}
