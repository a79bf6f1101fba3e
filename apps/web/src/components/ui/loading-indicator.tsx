import { useTranslation } from 'react-i18next';
import { useLoadingStore } from './loading-store';
import { Spinner } from './spinner';

/** Global indicator for calls made with `loading: true`; stays until the last of them answers. */
export function LoadingIndicator() {
  const { t } = useTranslation();
  const pending = useLoadingStore((state) => state.pending);
  if (pending === 0) return null;
  return (
    <div className="fixed inset-0 z-[70] flex items-center justify-center bg-black/30">
      <div role="status" className="flex flex-col items-center gap-3 rounded-xl bg-surface-2 px-6 py-5 text-sm text-text">
        <Spinner className="size-8" />
        <span>{t('common.loading')}</span>
      </div>
    </div>
  );
}
