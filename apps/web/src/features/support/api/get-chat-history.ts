import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChatMessage } from '@tp/contract/schemas/support';
import { apiGet } from '../../../lib/api-client';

export const CHAT_PAGE_SIZE = 20;

export interface ChatHistory {
  /** Oldest first. */
  data: ChatMessage[];
  total: number;
  /** Older messages exist before the first one. */
  has_more: boolean;
}

/** GET /api/support/history: `limit` messages before `before_id` (the newest ones without it); marks staff replies read. */
export const getChatHistory = (beforeId?: number) =>
  apiGet<ChatHistory>('/api/support/history', { before_id: beforeId, limit: CHAT_PAGE_SIZE }, { showErrorMessage: false });

/** The newest messages, polled every `pollMs` while the chat is open. */
export const getLatestChatQueryOptions = (enabled: boolean, pollMs: number) =>
  queryOptions({
    queryKey: ['support', 'history', 'latest'],
    queryFn: () => getChatHistory(),
    enabled,
    refetchInterval: pollMs,
    refetchIntervalInBackground: false,
    gcTime: 0,
  });

export const useLatestChat = (enabled: boolean, pollMs: number) => useQuery(getLatestChatQueryOptions(enabled, pollMs));
