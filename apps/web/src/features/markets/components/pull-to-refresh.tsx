import { PULL_TO_REFRESH_CLOSE_MS } from '@tp/contract/constants';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';

const THRESHOLD_PX = 64;

/** Pull down at the top of the page to refresh; the indicator closes 500 ms after the refresh starts. */
export function PullToRefresh({ onRefresh, children }: { onRefresh: () => unknown; children: ReactNode }) {
  const { t } = useTranslation();
  const start = useRef<number | null>(null);
  const [pull, setPull] = useState(0);
  const [refreshing, setRefreshing] = useState(false);

  const onTouchStart = (event: React.TouchEvent) => {
    start.current = window.scrollY <= 0 && !refreshing ? event.touches[0]!.clientY : null;
  };
  const onTouchMove = (event: React.TouchEvent) => {
    if (start.current === null) return;
    setPull(Math.max(0, Math.min(THRESHOLD_PX * 1.5, event.touches[0]!.clientY - start.current)));
  };
  const onTouchEnd = () => {
    const pulled = pull;
    start.current = null;
    setPull(0);
    if (pulled < THRESHOLD_PX) return;
    setRefreshing(true);
    void onRefresh();
    setTimeout(() => setRefreshing(false), PULL_TO_REFRESH_CLOSE_MS);
  };

  const height = refreshing ? 40 : pull / 1.5;
  return (
    <div onTouchStart={onTouchStart} onTouchMove={onTouchMove} onTouchEnd={onTouchEnd}>
      <div
        className="flex items-center justify-center gap-2 overflow-hidden text-xs text-muted transition-[height]"
        style={{ height }}
        role={refreshing ? 'status' : undefined}
        aria-hidden={!refreshing && pull === 0}
      >
        {refreshing ? (
          <>
            <Spinner className="size-4" />
            {t('markets.refreshing')}
          </>
        ) : (
          pull > 0 && (pull >= THRESHOLD_PX ? t('markets.release_to_refresh') : t('markets.pull_to_refresh'))
        )}
      </div>
      {children}
    </div>
  );
}
