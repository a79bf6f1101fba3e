import type { ChatMessage } from '@tp/contract/schemas/support';
import { useId, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { uploadImage } from '../../../lib/upload-image';
import { useSendChatMessage } from '../api/send-chat-message';
import { CHAT_BODY_MAX } from './chat-messages';

function ImageIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className="size-5">
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="m21 16-5-5-9 9" />
    </svg>
  );
}

/** The message box: text (Enter sends, Shift+Enter a new line) or one image uploaded and sent at once. */
export function ChatComposer({ onSent }: { onSent: (message: ChatMessage) => void }) {
  const { t } = useTranslation();
  const fileId = useId();
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const send = useSendChatMessage();
  const busy = send.isPending || uploading;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const body = text.trim();
    if (!body || busy) return;
    if (body.length > CHAT_BODY_MAX) return toast(t('support.message_too_long', { max: CHAT_BODY_MAX }), 'error');
    send.mutate({ body }, { onSuccess: (message) => {
      setText('');
      onSent(message);
    } });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || busy) return;
    setUploading(true);
    try {
      const imageUrl = await uploadImage(file);
      onSent(await send.mutateAsync({ body: '', image_url: imageUrl }));
    } catch {
      // The API client already showed why.
    } finally {
      setUploading(false);
    }
  };

  return (
    <form onSubmit={submit} className="sticky bottom-0 z-10 mx-auto flex w-full max-w-3xl items-end gap-2 border-t border-border bg-bg/95 px-3 py-2.5 pb-[calc(0.625rem+env(safe-area-inset-bottom))] backdrop-blur">
      <label
        htmlFor={fileId}
        title={t('support.attach_image')}
        className={`flex size-10 shrink-0 cursor-pointer items-center justify-center rounded-full text-muted hover:bg-surface-2 hover:text-text ${busy ? 'pointer-events-none opacity-50' : ''}`}
      >
        {uploading ? <Spinner className="size-5" /> : <ImageIcon />}
      </label>
      <input
        id={fileId}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        aria-label={t('support.attach_image')}
        disabled={busy}
        className="sr-only"
        onChange={(e) => void onPick(e)}
      />
      <textarea
        aria-label={t('support.message')}
        placeholder={t('support.message_placeholder')}
        rows={1}
        maxLength={CHAT_BODY_MAX}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        className="max-h-32 min-h-10 min-w-0 flex-1 resize-none rounded-2xl border border-border bg-surface px-3.5 py-2 text-text outline-none placeholder:text-muted/70 focus:border-accent"
      />
      <Button type="submit" disabled={busy || !text.trim()} className="shrink-0 rounded-full">
        {t('support.send')}
      </Button>
    </form>
  );
}
