import type { ChatMessage } from '@tp/contract/schemas/support';
import { useCallback, useMemo, useState } from 'react';
import { useSocketTopic } from '../../../lib/use-socket';
import { getChatHistory, useLatestChat } from '../api/get-chat-history';
import { useChatUnread } from '../api/get-chat-unread';
import { CHAT_TOPIC, chatMessageOf, firstUnreadId, mergeMessages } from './chat-messages';

/** Poll while no live push has arrived (the gateway may not forward CHAT yet), then only as a safety net. */
const POLL_MS = 3_000;
const POLL_WITH_PUSHES_MS = 15_000;

export interface ChatConversation {
  messages: ChatMessage[];
  status: 'pending' | 'error' | 'success';
  retry: () => void;
  /** Older messages exist before the first one shown. */
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => Promise<void>;
  /** Where the "new messages" divider goes, if the user had unread replies when opening. */
  unreadFromId: number | null;
  /** Adds a message this client just sent. */
  add: (message: ChatMessage) => void;
}

/** The user's conversation with support: newest page polled, older pages on demand, live CHAT pushes. */
export function useChatConversation(loggedIn: boolean): ChatConversation {
  const unread = useChatUnread(loggedIn);
  const [pushes, setPushes] = useState(false);
  // History marks replies read, so it is asked only once the unread count is known.
  const latest = useLatestChat(loggedIn && !unread.isPending, pushes ? POLL_WITH_PUSHES_MS : POLL_MS);
  const [extra, setExtra] = useState<ChatMessage[]>([]);
  const [older, setOlder] = useState<{ hasMore: boolean; loading: boolean } | null>(null);
  const [divider, setDivider] = useState<{ id: number | null } | null>(null);

  const add = useCallback((message: ChatMessage) => setExtra((list) => mergeMessages(list, [message])), []);

  useSocketTopic(loggedIn ? CHAT_TOPIC : null, (push) => {
    const message = chatMessageOf(push);
    if (!message) return;
    setPushes(true);
    add(message);
  });

  const messages = useMemo(() => mergeMessages(extra, latest.data?.data), [extra, latest.data]);

  // Decided once, from the first answer: the replies that were unread when the chat opened.
  if (divider === null && latest.data) setDivider({ id: firstUnreadId(latest.data.data, unread.data?.count ?? 0) });

  const loadOlder = async () => {
    const first = messages[0];
    if (!first) return;
    setOlder((state) => ({ hasMore: state?.hasMore ?? true, loading: true }));
    try {
      const page = await getChatHistory(first.id);
      setExtra((list) => mergeMessages(list, page.data));
      setOlder({ hasMore: page.has_more, loading: false });
    } catch {
      setOlder((state) => ({ hasMore: state?.hasMore ?? true, loading: false }));
    }
  };

  return {
    messages,
    status: unread.isPending || latest.isPending ? 'pending' : latest.isError && !latest.data ? 'error' : 'success',
    retry: () => void latest.refetch(),
    hasOlder: older ? older.hasMore : Boolean(latest.data?.has_more),
    loadingOlder: Boolean(older?.loading),
    loadOlder,
    unreadFromId: divider?.id ?? null,
    add,
  };
}
