import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDateTime } from '../../../lib/format';
import { useQueryParam } from '../../../lib/query-params';
import { useNewsInfo } from '../api/get-news-info';
import { NewsContent } from './news-content';

function parseId(raw: string | null): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

function DetailSkeleton() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-busy="true" aria-label={t('common.loading')} className="flex animate-pulse flex-col gap-3 p-4">
      <span className="h-6 w-3/4 rounded bg-surface-2" />
      <span className="h-3 w-32 rounded bg-surface-2" />
      {Array.from({ length: 6 }, (_, i) => (
        <span key={i} className="h-3 w-full rounded bg-surface-2" />
      ))}
    </div>
  );
}

/** /news/detail?id={id} (the id may also follow the hash): one article with its sanitized HTML body. */
export function NewsDetailPage() {
  const { t } = useTranslation();
  const id = parseId(useQueryParam('id'));
  const article = useNewsInfo(id);

  return (
    <>
      <PageHeader title={t('pages.news_detail')} />
      <div className="mx-auto w-full max-w-3xl">
        {id === null ? (
          <EmptyState message={t('news.not_found')} />
        ) : article.isPending ? (
          <DetailSkeleton />
        ) : article.isError ? (
          <ErrorState onRetry={() => void article.refetch()} />
        ) : (
          <article className="flex flex-col gap-2 p-4 lg:p-6">
            <h2 className="text-xl font-semibold leading-snug">{article.data.title}</h2>
            <time dateTime={article.data.created_at} className="text-xs text-muted">
              {formatDateTime(article.data.created_at)}
            </time>
            {article.data.logo && <img src={article.data.logo} alt="" className="my-2 max-h-72 w-full rounded-lg object-cover" />}
            <NewsContent html={article.data.content} />
          </article>
        )}
      </div>
    </>
  );
}
