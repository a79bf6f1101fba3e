import { useTranslation } from 'react-i18next';

export function Spinner({ className = 'size-6' }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block animate-spin rounded-full border-2 border-muted/40 border-t-accent ${className}`}
    />
  );
}

/** Fallback while a page's code chunk loads. */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <div role="status" className="flex justify-center py-16">
      <Spinner />
      <span className="sr-only">{t('common.loading')}</span>
    </div>
  );
}
