import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { LoadMore } from '../../../components/ui/load-more';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useWithdrawRecords } from '../api/get-withdraw-records';
import { formatAmount } from './amount-text';

const statusClass = ['text-accent', 'text-up', 'text-down'];

/** The user's withdrawals of one type: amount, fee, received, status and the staff note. */
export function WithdrawRecords({ type }: { type: 1 | 2 }) {
  const { t } = useTranslation();
  const records = useWithdrawRecords(type, true);
  const rows = records.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section aria-label={t('funding.withdraw_records')} className="flex flex-col gap-2">
      <h2 className="text-sm font-medium text-muted">{t('funding.withdraw_records')}</h2>
      {records.isPending ? (
        <SkeletonRows rows={3} />
      ) : records.isError ? (
        <ErrorState onRetry={() => void records.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <ul className="divide-y divide-border rounded-xl bg-surface" data-testid="withdraw-records">
            {rows.map((row) => (
              <li key={row.id} className="flex flex-col gap-1 px-4 py-3 text-sm">
                <div className="flex items-center gap-3">
                  <span className="flex-1 font-medium tabular-nums">{formatMoney(row.number)} USD</span>
                  <span className={statusClass[row.status] ?? 'text-muted'}>{t(`funding.withdraw_status_${row.status as 0 | 1 | 2}`)}</span>
                </div>
                <span className="text-xs text-muted">
                  {t('funding.fee')}: {formatMoney(row.fee)} USD · {t('funding.received')}: {formatAmount(row.real_number)} {row.draw_currency.code}
                </span>
                <span className="break-all text-xs text-muted" dir="ltr">
                  {row.address || row.payee_account}
                </span>
                <span className="text-xs text-muted">{formatDateTime(row.created_at)}</span>
                {row.notes && <span className="text-xs text-down">{t('funding.remark', { remark: row.notes })}</span>}
              </li>
            ))}
          </ul>
          <LoadMore hasMore={Boolean(records.hasNextPage)} loading={records.isFetchingNextPage} onMore={() => void records.fetchNextPage()} label={t('funding.load_more')} />
        </>
      )}
    </section>
  );
}
