import { SKELETON_ROWS } from '@tp/contract/constants';
import { useTranslation } from 'react-i18next';

/** Placeholder rows while a list loads (the market list shows 10). */
export function SkeletonRows({ rows = SKELETON_ROWS }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-busy="true" aria-label={t('common.loading')}>
      <ul className="divide-y divide-border">
        {Array.from({ length: rows }, (_, index) => (
          <li key={index} data-testid="skeleton-row" className="flex animate-pulse items-center gap-3 px-4 py-3.5">
            <span className="size-8 shrink-0 rounded-full bg-surface-2" />
            <span className="flex flex-1 flex-col gap-2">
              <span className="h-3 w-24 rounded bg-surface-2" />
              <span className="h-2.5 w-16 rounded bg-surface-2" />
            </span>
            <span className="h-3 w-16 rounded bg-surface-2" />
          </li>
        ))}
      </ul>
    </div>
  );
}
