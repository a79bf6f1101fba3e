import { useTranslation } from 'react-i18next';
import { copyText } from '../../lib/clipboard';
import { Button } from './button';
import { toast } from './toast-store';

/** Copies `text` and says "copy success" (spec section 8). */
export function CopyButton({ text, label, className = '' }: { text: string; label: string; className?: string }) {
  const { t } = useTranslation();
  const onCopy = async () => {
    if (await copyText(text)) toast(t('messages.copy_success'), 'success');
  };
  return (
    <Button variant="secondary" className={`shrink-0 px-3 py-1.5 text-xs ${className}`} aria-label={label} onClick={() => void onCopy()}>
      {label}
    </Button>
  );
}
