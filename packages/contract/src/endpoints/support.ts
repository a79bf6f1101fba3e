import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { pageOf } from '../schemas/content.ts';
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
} from '../schemas/support.ts';

// ---------------------------------------------------------------- the user's side

export const sendChatMessage = endpoint({
  method: 'POST',
  path: '/api/support/send',
  auth: 'user',
  input: ChatSendInput,
  output: ChatMessageSchema,
  summary: 'Sends a message to support: body and/or image_url (from POST /api/common/image_upload); pushed as CHAT',
  tags: ['support'],
  rateLimit: { max: 60, timeWindow: 60_000 },
});

export const chatHistory = endpoint({
  method: 'GET',
  path: '/api/support/history',
  auth: 'user',
  input: ChatHistoryInput,
  output: ChatHistorySchema,
  summary: 'The conversation with support, oldest first, `limit` messages before before_id; marks staff messages read',
  tags: ['support'],
});

export const chatUnread = endpoint({
  method: 'GET',
  path: '/api/support/unread',
  auth: 'user',
  output: ChatUnreadSchema,
  summary: 'How many support messages the user has not read',
  tags: ['support'],
});

export const submitFeedback = endpoint({
  method: 'POST',
  path: '/api/feedback/submit',
  auth: 'optional',
  input: FeedbackSubmitInput,
  output: z.object({ id: z.number().int() }),
  summary: 'Feedback form: content (up to 2000 characters) and an optional contact',
  tags: ['support'],
  rateLimit: { max: 10, timeWindow: 60_000 },
});

// ---------------------------------------------------------------- the support desk (back office)

/** Support role; the back office sends JSON bodies. */
const DESK = { auth: 'staff', roles: ['support'], tags: ['admin'], body: 'json' } as const;

export const conversations = endpoint({
  ...DESK,
  method: 'GET',
  path: '/api/admin/support/conversations',
  input: ConversationListInput,
  output: pageOf(ConversationSchema),
  summary: 'Users who have chatted, newest last message first, with unread counts',
});

export const staffChatHistory = endpoint({
  ...DESK,
  method: 'GET',
  path: '/api/admin/support/history',
  input: AdminChatHistoryInput,
  output: ChatHistorySchema,
  summary: "A user's conversation, oldest first, before before_id; marks the user's messages read by staff",
});

export const staffSendChatMessage = endpoint({
  ...DESK,
  method: 'POST',
  path: '/api/admin/support/send',
  input: AdminChatSendInput,
  output: ChatMessageSchema,
  summary: 'Answers a user: body and/or image_url; pushed to the user as CHAT',
});

export const feedbackList = endpoint({
  ...DESK,
  method: 'GET',
  path: '/api/admin/feedback/list',
  input: FeedbackListInput,
  output: pageOf(FeedbackSchema),
  summary: 'Feedback, newest first; status 0 open, 1 resolved',
});

export const resolveFeedback = endpoint({
  ...DESK,
  method: 'POST',
  path: '/api/admin/feedback/resolve',
  input: FeedbackIdInput,
  output: z.object({ id: z.number().int(), status: z.number().int() }),
  summary: 'Marks feedback resolved (once); answers its id and new status (1)',
});
