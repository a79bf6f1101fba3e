import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RiskWarningBanner } from '../../../components/risk-warning-banner';
import { ConnectionIndicator } from '../../../components/ui/connection-indicator';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { GlobeIcon, NewsIcon, SearchIcon } from '../../../components/ui/icons';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { ApiError } from '../../../lib/api-client';
import { useIsDesktop } from '../../../lib/device';
import { useDocumentTitle } from '../../../lib/document-title';
import { useLiveQuotesFeed } from '../../../lib/live-quotes';
import { usePageActive } from '../../../lib/page-activity';
import { useCategories } from '../../../api/get-categories';
import { useTradeList } from '../../../api/get-trade-list';
import { useFavourites } from '../../../api/favourites';
import { useMediaQuery, WIDE_SCREEN } from '../../../lib/use-media-query';
import { CategoryChips, type HomeFilter } from './category-chips';
import { MarketList } from './market-list';
import { PullToRefresh } from './pull-to-refresh';

/** The desktop table loads on wide screens only, so phones do not download it. */
const QuoteBoard = lazy(() => import('./quote-board').then((m) => ({ default: m.QuoteBoard })));

/** Home: the phone's top bar (on a desktop the layout's bar stands for it), category chips, the market list with small charts and live quotes, pull to refresh. */
export function HomePage() {
  const { t } = useTranslation();
  const tradeList = useTradeList();
  const categories = useCategories();
  const [category, setCategory] = useState<HomeFilter>(null);
  const favourites = useFavourites();
  const wide = useMediaQuery(WIDE_SCREEN);
  const desktop = useIsDesktop();
  useDocumentTitle(t('common.app_name'));
  useLiveQuotesFeed(usePageActive());

  let body;
  if (tradeList.isPending) body = <SkeletonRows />;
  else if (tradeList.isError) {
    const error = tradeList.error;
    const message = error instanceof ApiError && error.kind === 'business' ? error.message : undefined;
    body = <ErrorState message={message} onRetry={() => void tradeList.refetch()} />;
  } else {
    const symbols =
      category === null
        ? tradeList.data
        : tradeList.data.filter((s) => (category === 'favourites' ? favourites.ids.has(s.Id) : s.CategoryId === category));
    const props = { symbols, favourites: favourites.ids, onStar: favourites.toggle };
    if (symbols.length > 0)
      body = wide ? (
        <Suspense fallback={<SkeletonRows />}>
          <QuoteBoard {...props} />
        </Suspense>
      ) : (
        <MarketList {...props} />
      );
    else body = <EmptyState message={category === 'favourites' ? t('home.no_favourites') : undefined} />;
  }

  return (
    <>
      {desktop ? (
        // The desktop bar above already shows the name, the connection, the language and search.
        <h1 className="sr-only">{t('common.app_name')}</h1>
      ) : (
        <header className="sticky top-[var(--header-offset,0px)] z-20 flex h-12 items-center gap-1 border-b border-border bg-bg/95 ps-4 pe-2 backdrop-blur">
          <h1 className="flex-1 truncate text-base font-bold text-accent">{t('common.app_name')}</h1>
          <ConnectionIndicator />
          {/* News is open to all (spec, section 2); the phone's tab bar has no tab for it. */}
          <Link to="/news" aria-label={t('nav.news')} className="rounded p-2 text-text hover:bg-surface-2">
            <NewsIcon />
          </Link>
          <Link to="/language" aria-label={t('nav.language')} className="rounded p-2 text-text hover:bg-surface-2">
            <GlobeIcon />
          </Link>
          <Link to="/product" aria-label={t('home.search')} className="rounded p-2 text-text hover:bg-surface-2">
            <SearchIcon />
          </Link>
        </header>
      )}
      <RiskWarningBanner className="mx-4 mt-3" />
      <PullToRefresh onRefresh={() => Promise.all([tradeList.refetch(), categories.refetch()])}>
        <CategoryChips categories={categories.data ?? []} selected={category} onSelect={setCategory} />
        <section aria-label={t('home.market_list')}>{body}</section>
      </PullToRefresh>
    </>
  );
}
