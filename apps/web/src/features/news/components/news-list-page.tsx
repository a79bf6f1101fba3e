import type { NewsItem } from '@tp/contract/schemas/content';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { ChevronIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/format';
import { usePageActive } from '../../../lib/page-activity';
import { useInfiniteScroll } from '../../../lib/use-infinite-scroll';
import { useNewsList } from '../api/get-news-list';

function NewsRow({ item }: { item: NewsItem }) {
  return (
    <li>
      <Link to={`/news/detail?id=${item.id}`} className="flex items-start gap-3 px-4 py-3.5 hover:bg-surface">
        {item.logo && (
          <img src={item.logo} alt="" loading="lazy" className="size-16 shrink-0 rounded-lg bg-surface-2 object-cover lg:size-20" />
        )}
        <span className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="line-clamp-2 font-medium">{item.title}</span>
          {item.desc && <span className="line-clamp-2 text-sm text-muted">{item.desc}</span>}
          <time dateTime={item.created_at} className="text-xs text-muted">
            {formatDateTime(item.created_at)}
          </time>
        </span>
        <ChevronIcon className="mt-1 size-4 shrink-0 text-muted" />
      </Link>
    </li>
  );
}

/** /news: the news list, newest first; the next page loads when the end of the list scrolls into view. */
export function NewsListPage() {
  const { t } = useTranslation();
  const active = usePageActive();
  const news = useNewsList();
  const items = news.data?.pages.flatMap((page) => page.data) ?? [];
  const canLoad = active && Boolean(news.hasNextPage) && !news.isFetchingNextPage && !news.isFetchNextPageError;
  const sentinel = useInfiniteScroll<HTMLDivElement>(canLoad, () => void news.fetchNextPage());

  return (
    <>
      <PageHeader title={t('pages.news')} back={false} />
      <div className="mx-auto w-full max-w-3xl">
        {news.isPending ? (
          <SkeletonRows rows={6} />
        ) : !news.data ? (
          <ErrorState onRetry={() => void news.refetch()} />
        ) : items.length === 0 ? (
          <EmptyState />
        ) : (
          <>
            <ul aria-label={t('news.list')} className="divide-y divide-border">
              {items.map((item) => (
                <NewsRow key={item.id} item={item} />
              ))}
            </ul>
            <div ref={sentinel} className="flex justify-center py-4 text-sm text-muted">
              {news.isFetchingNextPage ? (
                <span role="status" className="inline-flex items-center gap-2">
                  <Spinner className="size-4" />
                  {t('common.loading')}
                </span>
              ) : news.isFetchNextPageError ? (
                <button type="button" className="text-accent underline" onClick={() => void news.fetchNextPage()}>
                  {t('news.load_more_failed')}
                </button>
              ) : news.hasNextPage ? (
                <button type="button" className="text-accent" onClick={() => void news.fetchNextPage()}>
                  {t('news.load_more')}
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
