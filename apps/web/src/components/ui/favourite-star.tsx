import { memo } from 'react';
import { useTranslation } from 'react-i18next';

/** A star that marks a symbol as a favourite; pressed when starred. Its name leaves out the symbol, which the row already says. */
export const FavouriteStar = memo(function FavouriteStar({
  symbolId,
  label,
  starred,
  onToggle,
  className = '',
}: {
  symbolId: number;
  label: string;
  starred: boolean;
  onToggle: (symbolId: number) => void;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      aria-pressed={starred}
      aria-label={t('common.favourite')}
      title={`${t(starred ? 'common.favourite_remove' : 'common.favourite_add')}: ${label}`}
      data-favourite={symbolId}
      onClick={(event) => {
        event.preventDefault();
        event.stopPropagation();
        onToggle(symbolId);
      }}
      className={`shrink-0 rounded p-1.5 hover:bg-surface-2 ${starred ? 'text-amber-400' : 'text-muted'} ${className}`}
    >
      <svg viewBox="0 0 24 24" fill={starred ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth={1.8} strokeLinejoin="round" aria-hidden="true" className="size-4">
        <path d="m12 3 2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3 6.4 20.2l1.1-6.2L3 9.6l6.2-.9z" />
      </svg>
    </button>
  );
});
