import type { RankingItem } from '@tp/contract/schemas/social';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { PageHeader } from '../../../components/ui/page-header';
import { Segmented } from '../../../components/ui/segmented';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { Spinner } from '../../../components/ui/spinner';
import { usePageActive } from '../../../lib/page-activity';
import { useQueryParam } from '../../../lib/query-params';
import { useSessionStore } from '../../../lib/session-store';
import { useInfiniteScroll } from '../../../lib/use-infinite-scroll';
import { useFollowList } from '../api/get-follow-list';
import { DocumentaryList } from './documentary-list';
import { RankingList } from './ranking-list';

type RankTab = 'ranking' | 'documentary';

/** /rank: trader ranking; /rank?tab=documentary: the copy-trading list (footer tab documentary). */
export function RankPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const active = usePageActive();
  const tab: RankTab = useQueryParam('tab') === 'documentary' ? 'documentary' : 'ranking';
  const list = useFollowList();
  const items = list.data?.pages.flatMap((page) => page.data) ?? [];
  const canLoad = active && Boolean(list.hasNextPage) && !list.isFetchingNextPage && !list.isFetchNextPageError;
  const sentinel = useInfiniteScroll<HTMLDivElement>(canLoad, () => void list.fetchNextPage());

  const loggedIn = useSessionStore((state) => Boolean(state.token));
  // A tap opens the trader's profile: statistics, equity curve and the Copy button.
  const openTrader = (item: RankingItem) => navigate(`/rank/trader?id=${item.id}`);

  return (
    <>
      <PageHeader title={tab === 'documentary' ? t('pages.documentary') : t('pages.rank')} back={false} />
      <div className="mx-auto w-full max-w-3xl">
        <div className="flex flex-col gap-2 px-4 pt-3">
          <Segmented<RankTab>
            label={t('rank.tabs')}
            value={tab}
            onChange={(next) => navigate(next === 'documentary' ? '/rank?tab=documentary' : '/rank', { replace: true })}
            options={[
              { value: 'ranking', label: t('tabs.ranking') },
              { value: 'documentary', label: t('tabs.documentary') },
            ]}
          />
          <div className="flex items-center justify-between gap-3">
            <p className="text-xs text-muted">{t('rank.window_hint')}</p>
            {loggedIn ? (
              <Link to="/rank/copies" className="shrink-0 text-sm text-accent">
                {t('rank.my_copies')}
              </Link>
            ) : null}
          </div>
        </div>
        {list.isPending ? (
          <SkeletonRows rows={8} />
        ) : !list.data ? (
          <ErrorState onRetry={() => void list.refetch()} />
        ) : items.length === 0 ? (
          <EmptyState />
        ) : (
          <>
            {tab === 'documentary' ? (
              <DocumentaryList items={items} onOpen={openTrader} />
            ) : (
              <RankingList items={items} onOpen={openTrader} />
            )}
            <div ref={sentinel} className="flex justify-center py-4 text-sm text-muted">
              {list.isFetchingNextPage ? (
                <span role="status" className="inline-flex items-center gap-2">
                  <Spinner className="size-4" />
                  {t('common.loading')}
                </span>
              ) : list.hasNextPage ? (
                <button type="button" className="text-accent" onClick={() => void list.fetchNextPage()}>
                  {t('rank.load_more')}
                </button>
              ) : (
                <span>{t('messages.no_more')}</span>
              )}
            </div>
          </>
        )}
      </div>
    </>
  );
}
