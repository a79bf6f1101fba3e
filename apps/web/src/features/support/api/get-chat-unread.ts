import { queryOptions, useQuery } from '@tanstack/react-query';
import { chatUnread } from '@tp/contract/endpoints/support';
import { call, queryKey } from '../../../lib/api-client';

/** Support replies the user has not read yet. */
export const getChatUnread = () => call(chatUnread, undefined, { showErrorMessage: false });

/** Read once when the chat opens (opening the history marks the replies read). */
export const getChatUnreadQueryOptions = (enabled: boolean) =>
  queryOptions({ queryKey: queryKey(chatUnread), queryFn: getChatUnread, enabled, staleTime: Infinity, gcTime: 0, retry: false });

export const useChatUnread = (enabled: boolean) => useQuery(getChatUnreadQueryOptions(enabled));
