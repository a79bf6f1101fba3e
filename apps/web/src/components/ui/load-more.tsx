import { useTranslation } from 'react-i18next';
import { Button } from './button';

/** The end of a paged list: a button for the next page, or "no more". */
export function LoadMore({ hasMore, loading, onMore, label }: { hasMore: boolean; loading: boolean; onMore: () => void; label: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex justify-center py-4 text-sm text-muted">
      {hasMore ? (
        <Button variant="ghost" disabled={loading} onClick={onMore}>
          {label}
        </Button>
      ) : (
        <span>{t('messages.no_more')}</span>
      )}
    </div>
  );
}
