import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

/** GET /api/support/unread: support replies the user has not read yet. */
export const getChatUnread = () => apiGet<{ count: number }>('/api/support/unread', undefined, { showErrorMessage: false });

/** Read once when the chat opens (opening the history marks the replies read). */
export const getChatUnreadQueryOptions = (enabled: boolean) =>
  queryOptions({ queryKey: ['support', 'unread'], queryFn: getChatUnread, enabled, staleTime: Infinity, gcTime: 0, retry: false });

export const useChatUnread = (enabled: boolean) => useQuery(getChatUnreadQueryOptions(enabled));
