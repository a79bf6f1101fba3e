import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { InboxIcon } from './icons';

export function EmptyState({ message, action }: { message?: string; action?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-16 text-center text-muted">
      <InboxIcon className="size-12 opacity-60" />
      <p>{message ?? t('messages.no_data')}</p>
      {action}
    </div>
  );
}
