import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronIcon } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useAccountLog } from '../api/get-account-log';
import { useForexDetail } from '../../../api/get-forex-detail';

/** /mine/history: balance, locked margin, a link to the statements and the account log with paging. */
export function AccountHistoryPage() {
  const { t } = useTranslation();
  const detail = useForexDetail();
  const log = useAccountLog();
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <>
      <PageHeader title={t('pages.history')} />
      <div className="mx-auto w-full max-w-3xl">
        <section className="m-4 grid grid-cols-2 gap-3 rounded-xl bg-surface p-4">
          <div className="flex flex-col gap-1">
            <span className="text-xs text-muted">{t('funding.available')} (USD)</span>
            <span className="text-lg font-semibold tabular-nums">{formatMoney(detail.data?.balance)}</span>
          </div>
          <div className="flex flex-col gap-1">
            <span className="text-xs text-muted">{t('account.lock_balance')}</span>
            <span className="text-lg font-semibold tabular-nums">{formatMoney(detail.data?.lock_balance)}</span>
          </div>
        </section>
        {/* The same log and the closed positions for a chosen period, as CSV or a printable page. */}
        <Link
          to="/mine/statements"
          className="mx-4 mb-4 flex items-center gap-3 rounded-xl bg-surface px-4 py-3 text-sm font-medium hover:bg-surface-2"
        >
          <span className="flex-1">{t('pages.statements')}</span>
          <ChevronIcon className="size-4 text-muted" />
        </Link>
        <h2 className="px-4 pb-2 text-sm font-medium text-muted">{t('account.log_title')}</h2>
        {log.isPending ? (
          <SkeletonRows rows={6} />
        ) : log.isError ? (
          <ErrorState onRetry={() => void log.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState />
        ) : (
          <>
            <ul className="divide-y divide-border border-y border-border">
              {rows.map((row) => {
                const negative = row.Value.trim().startsWith('-');
                return (
                  <li key={row.Id} className="flex items-center gap-3 px-4 py-3">
                    <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                      <span className="truncate">{row.MemoTran || row.Memo}</span>
                      <span className="text-xs text-muted">{row.CreatedAt ? formatDateTime(row.CreatedAt * 1000) : row.CreatedAtTran}</span>
                    </span>
                    <span className={`tabular-nums ${negative ? 'text-down' : 'text-up'}`} dir="ltr">
                      {formatMoney(row.Value, { signed: true })}
                    </span>
                  </li>
                );
              })}
            </ul>
            <LoadMore
              hasMore={Boolean(log.hasNextPage)}
              loading={log.isFetchingNextPage}
              onMore={() => void log.fetchNextPage()}
              label={t('account.load_more')}
            />
          </>
        )}
      </div>
    </>
  );
}
