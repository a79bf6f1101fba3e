import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { LoadMore } from '../../../components/ui/load-more';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';

interface RecordListProps<T extends { id: number }> {
  title: string;
  testId: string;
  records: UseInfiniteQueryResult<InfiniteData<{ data: T[] }>>;
  /** The inside of one row. */
  row: (record: T) => ReactNode;
}

/** A titled list of the user's funding records, loading, failed or empty, with "load more". */
export function RecordList<T extends { id: number }>({ title, testId, records, row }: RecordListProps<T>) {
  const { t } = useTranslation();
  const rows = records.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section aria-label={title} className="flex flex-col gap-2">
      <h2 className="text-sm font-medium text-muted">{title}</h2>
      {records.isPending ? (
        <SkeletonRows rows={3} />
      ) : records.isError ? (
        <ErrorState onRetry={() => void records.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <ul className="divide-y divide-border rounded-xl bg-surface" data-testid={testId}>
            {rows.map((record) => (
              <li key={record.id} className="flex flex-col gap-1 px-4 py-3 text-sm">
                {row(record)}
              </li>
            ))}
          </ul>
          <LoadMore
            hasMore={Boolean(records.hasNextPage)}
            loading={records.isFetchingNextPage}
            onMore={() => void records.fetchNextPage()}
            label={t('funding.load_more')}
          />
        </>
      )}
    </section>
  );
}
