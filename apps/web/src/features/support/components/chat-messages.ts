import type { ChatMessage } from '@tp/contract/schemas/support';

/**
 * The contract's CHAT_BODY_MAX, FEEDBACK_CONTENT_MAX and FEEDBACK_CONTACT_MAX, spelled out so the
 * page chunks do not pull in the zod schemas (chat-messages.test.ts checks that they agree).
 */
export const CHAT_BODY_MAX = 2000;
export const FEEDBACK_CONTENT_MAX = 2000;
export const FEEDBACK_CONTACT_MAX = 200;
/** The socket push type of chat messages. */
export const CHAT_TOPIC = 'CHAT';

/** One conversation from pages, polls, pushes and sends that overlap: each id once, oldest first. */
export function mergeMessages(...lists: readonly (readonly ChatMessage[] | undefined)[]): ChatMessage[] {
  const byId = new Map<number, ChatMessage>();
  for (const list of lists) for (const message of list ?? []) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The first of the last `unread` staff replies: where the "new messages" divider goes. */
export function firstUnreadId(messages: readonly ChatMessage[], unread: number): number | null {
  if (unread <= 0) return null;
  const replies = messages.filter((m) => m.sender === 'staff');
  if (replies.length === 0) return null;
  return replies[Math.max(0, replies.length - unread)]!.id;
}

/** A push of type CHAT carrying a message, else null. */
export function chatMessageOf(push: { type: string; message?: unknown }): ChatMessage | null {
  const message = push.message as Partial<ChatMessage> | undefined;
  if (push.type !== CHAT_TOPIC || !message || typeof message.id !== 'number' || (message.sender !== 'user' && message.sender !== 'staff')) return null;
  return message as ChatMessage;
}
