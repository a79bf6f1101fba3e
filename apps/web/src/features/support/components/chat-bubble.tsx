import type { ChatMessage } from '@tp/contract/schemas/support';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';

/** One message: the user's own on the end side, support's replies on the start side. */
export function ChatBubble({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  const mine = message.sender === 'user';
  return (
    <li className={`flex flex-col gap-1 ${mine ? 'items-end' : 'items-start'}`} data-sender={message.sender}>
      <span className="text-[11px] text-muted">
        {mine ? t('support.you') : t('support.staff')} · <time dateTime={message.created_at}>{formatDateTime(message.created_at)}</time>
      </span>
      <div
        className={`flex max-w-[80%] flex-col gap-2 rounded-2xl px-3.5 py-2.5 ${
          mine ? 'rounded-ee-sm bg-accent text-on-accent' : 'rounded-es-sm bg-surface-2 text-text'
        }`}
      >
        {message.image_url && (
          <a href={message.image_url} target="_blank" rel="noopener noreferrer">
            <img src={message.image_url} alt={t('support.image')} loading="lazy" className="max-h-60 max-w-full rounded-lg object-contain" />
          </a>
        )}
        {message.body && <p dir="auto" className="whitespace-pre-wrap break-words">{message.body}</p>}
      </div>
    </li>
  );
}
