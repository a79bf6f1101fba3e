import { queryOptions, useQuery } from '@tanstack/react-query';
import { chatHistory } from '@tp/contract/endpoints/support';
import type { OutputOf } from '@tp/contract/endpoint';
import { call, queryKey } from '../../../lib/api-client';

export const CHAT_PAGE_SIZE = 20;

/** Oldest first; `has_more` says older messages exist before the first one. */
export type ChatHistory = OutputOf<typeof chatHistory>;

/** `limit` messages before `before_id` (the newest ones without it); marks staff replies read. */
export const getChatHistory = (beforeId?: number) =>
  call(chatHistory, { before_id: beforeId, limit: CHAT_PAGE_SIZE }, { showErrorMessage: false });

/** The newest messages, polled every `pollMs` while the chat is open. */
export const getLatestChatQueryOptions = (enabled: boolean, pollMs: number) =>
  queryOptions({
    queryKey: queryKey(chatHistory, { limit: CHAT_PAGE_SIZE }),
    queryFn: () => getChatHistory(),
    enabled,
    refetchInterval: pollMs,
    refetchIntervalInBackground: false,
    gcTime: 0,
  });

export const useLatestChat = (enabled: boolean, pollMs: number) => useQuery(getLatestChatQueryOptions(enabled, pollMs));
