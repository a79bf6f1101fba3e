import { z } from 'zod';
import { optionalChoiceField, text } from './fields.ts';
import { intParam, optionalId, PageInput, requiredId } from './content.ts';

export const CHAT_BODY_MAX = 2000;
export const FEEDBACK_CONTENT_MAX = 2000;
export const FEEDBACK_CONTACT_MAX = 200;

/** The websocket push type of chat messages (user topic CHAT, and the staff support desk). */
export const CHAT_PUSH_TYPE = 'CHAT';

/** A chat message as both sides see it: body is plain text (show it as text); image_url is an upload URL (POST /api/common/image_upload). */
export const ChatMessageSchema = z.object({
  id: z.number().int(),
  sender: z.enum(['user', 'staff']),
  body: z.string(),
  image_url: z.string().nullable(),
  /** ISO 8601, UTC. */
  created_at: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

const body = text().max(CHAT_BODY_MAX, 'msg:chat_body_too_long').default('');
const imageUrl = z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().max(2048).optional());

export const ChatSendInput = z.object({ body, image_url: imageUrl });
export const ChatHistoryInput = z.object({ before_id: optionalId, limit: intParam(20, 1, 100) });
/** Messages in ascending id order; has_more says older ones exist before the first. */
export const ChatHistorySchema = z.object({ data: z.array(ChatMessageSchema), total: z.number().int(), has_more: z.boolean() });
export const ChatUnreadSchema = z.object({ count: z.number().int() });

export const AdminChatHistoryInput = ChatHistoryInput.extend({ user_id: requiredId });
export const AdminChatSendInput = ChatSendInput.extend({ user_id: requiredId });
export const ConversationSchema = z.object({
  user_id: z.number().int(),
  uid: z.string(),
  email: z.string(),
  mobile: z.string(),
  is_demo: z.union([z.literal(0), z.literal(1)]),
  /** Messages from the user that staff have not read. */
  unread: z.number().int(),
  last_message: ChatMessageSchema,
});
export const ConversationListInput = PageInput;

export const FeedbackSubmitInput = z.object({
  content: text('msg:feedback_content_required')
    .trim()
    .min(1, 'msg:feedback_content_required')
    .max(FEEDBACK_CONTENT_MAX, 'msg:feedback_content_too_long'),
  contact: text().trim().max(FEEDBACK_CONTACT_MAX, 'msg:feedback_contact_too_long').default(''),
});
export const FeedbackStatus = { OPEN: 0, RESOLVED: 1 } as const;
export const FeedbackListInput = PageInput.extend({
  status: optionalChoiceField([0, 1]),
});
export const FeedbackSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  uid: z.string(),
  email: z.string(),
  contact: z.string(),
  content: z.string(),
  /** 0 open, 1 resolved. */
  status: z.number().int(),
  created_at: z.string(),
});
export const FeedbackIdInput = z.object({ id: requiredId });
