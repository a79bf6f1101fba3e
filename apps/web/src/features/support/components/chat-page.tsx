import { Fragment, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { PageHeader } from '../../../components/ui/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { loginPath } from '../../../lib/navigation';
import { useSessionStore } from '../../../lib/session-store';
import { ChatBubble } from './chat-bubble';
import { ChatComposer } from './chat-composer';
import { useChatConversation } from './use-chat-conversation';

function Conversation() {
  const { t } = useTranslation();
  const chat = useChatConversation(true);
  const end = useRef<HTMLDivElement>(null);
  const lastId = chat.messages.at(-1)?.id;

  // Follow the newest message; loading older ones above does not move the view.
  useEffect(() => {
    if (lastId !== undefined) end.current?.scrollIntoView({ block: 'end' });
  }, [lastId]);

  return (
    <div className="flex min-h-[calc(100dvh-3rem)] flex-col">
      <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col">
        {chat.status === 'pending' ? (
          <SkeletonRows rows={5} />
        ) : chat.status === 'error' ? (
          <ErrorState onRetry={chat.retry} />
        ) : (
          <>
            {chat.hasOlder && (
              <div className="flex justify-center pt-3">
                <button
                  type="button"
                  disabled={chat.loadingOlder}
                  onClick={() => void chat.loadOlder()}
                  className="text-sm text-accent disabled:opacity-50"
                >
                  {t('support.load_older')}
                </button>
              </div>
            )}
            {chat.messages.length === 0 ? (
              <EmptyState message={t('support.empty')} />
            ) : (
              <ol aria-label={t('support.conversation')} aria-live="polite" className="flex flex-col gap-3 px-4 py-4">
                {chat.messages.map((message) => (
                  <Fragment key={message.id}>
                    {message.id === chat.unreadFromId && (
                      // A list may only hold list items: the divider is one, its rules drawn and hidden from screen readers.
                      <li className="flex items-center gap-3 text-xs text-accent">
                        <span aria-hidden="true" className="h-px flex-1 bg-accent/40" />
                        {t('support.new_messages')}
                        <span aria-hidden="true" className="h-px flex-1 bg-accent/40" />
                      </li>
                    )}
                    <ChatBubble message={message} />
                  </Fragment>
                ))}
              </ol>
            )}
          </>
        )}
        <div ref={end} />
      </div>
      <ChatComposer onSent={chat.add} />
    </div>
  );
}

/** /mine/chat: the user's conversation with support, live over the socket (history polled as a fallback). */
export function ChatPage() {
  const { t } = useTranslation();
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  return (
    <>
      <PageHeader title={t('pages.chat')} />
      {loggedIn ? (
        <Conversation />
      ) : (
        <EmptyState
          message={t('support.login_required')}
          action={
            <Link to={loginPath('/mine/chat')} className="rounded-lg bg-accent px-4 py-2.5 text-sm font-medium text-on-accent">
              {t('nav.login')}
            </Link>
          }
        />
      )}
    </>
  );
}
