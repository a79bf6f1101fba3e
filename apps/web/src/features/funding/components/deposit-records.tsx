import { DepositStatus } from '@tp/contract/constants';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { LoadMore } from '../../../components/ui/load-more';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatDateTime } from '../../../lib/format';
import { formatAmount } from './amount-text';
import { useDepositRecords } from '../api/get-deposit-records';

const statusClass: Record<number, string> = {
  [DepositStatus.UNCHECKED]: 'text-accent',
  [DepositStatus.FINISHED]: 'text-up',
  [DepositStatus.REJECTED]: 'text-down',
  [DepositStatus.INVALID]: 'text-muted',
};

/** The user's deposits of one type with their status, and the remark of a rejected one. */
export function DepositRecords({ type }: { type: 0 | 1 }) {
  const { t } = useTranslation();
  const records = useDepositRecords(type, true);
  const rows = records.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section aria-label={t('funding.deposit_records')} className="flex flex-col gap-2">
      <h2 className="text-sm font-medium text-muted">{t('funding.deposit_records')}</h2>
      {records.isPending ? (
        <SkeletonRows rows={3} />
      ) : records.isError ? (
        <ErrorState onRetry={() => void records.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <ul className="divide-y divide-border rounded-xl bg-surface" data-testid="deposit-records">
            {rows.map((row) => (
              <li key={row.id} className="flex flex-col gap-1 px-4 py-3 text-sm">
                <div className="flex items-center gap-3">
                  <span className="flex-1 font-medium tabular-nums">
                    {formatAmount(row.number)} {row.currency_code}
                  </span>
                  <span className={statusClass[row.status] ?? 'text-muted'}>{t(`funding.deposit_status_${row.status as 0 | 1 | 2 | 3}`)}</span>
                </div>
                <span className="text-xs text-muted">{formatDateTime(row.created_at)}</span>
                {row.status === DepositStatus.REJECTED && row.remark && (
                  <span className="text-xs text-down">{t('funding.remark', { remark: row.remark })}</span>
                )}
              </li>
            ))}
          </ul>
          <LoadMore hasMore={Boolean(records.hasNextPage)} loading={records.isFetchingNextPage} onMore={() => void records.fetchNextPage()} label={t('funding.load_more')} />
        </>
      )}
    </section>
  );
}
