import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorState } from '../../../components/ui/error-state';
import { Spinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/document-title';
import { formatDateTime } from '../../../lib/format';
import { useSessionStore } from '../../../lib/session-store';
import { useStatement } from '../api/get-statement';
import { MAX_DAYS, rangeBounds, rangeFromQuery, rangeQuery, utcOffsetLabel } from './statement-range';
import { StatementLog, StatementPositions, StatementSummary } from './statement-view';

/** Paper, on screen as in print: white, no app colours; in print the toolbar is left out. */
const PAPER_CSS = `
html, body { background: #fff !important; color-scheme: light; }
@media print {
  html, body { color: #000 !important; }
  @page { margin: 12mm; }
}`;

/**
 * /mine/statements/print: the statement as a document, outside the app's frame (no header, menus or
 * tab bar), opening the browser's print dialog once it has loaded; saved as PDF from there.
 */
export function StatementPrintPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const range = useMemo(() => rangeFromQuery(params), [params]);
  const check = rangeBounds(range);
  const statement = useStatement(check.ok ? check.bounds : null);
  const user = useSessionStore((state) => state.user);
  const printed = useRef(false);
  useDocumentTitle(`${t('statements.statement_title')} ${range.from} – ${range.to}`);

  const data = statement.isSuccess && !statement.isPlaceholderData ? statement.data : undefined;
  useEffect(() => {
    if (!data || printed.current) return;
    // After this render is painted, so the dialog shows the statement. Marked printed only when it
    // runs: new data within the delay (a refetch after the socket logs in) reschedules it, never drops it.
    const id = window.setTimeout(() => {
      printed.current = true;
      window.print();
    }, 300);
    return () => window.clearTimeout(id);
  }, [data]);

  return (
    <div className="min-h-dvh bg-white text-neutral-900 [color-scheme:light]">
      <style>{PAPER_CSS}</style>
      <div
        className="flex items-center gap-3 border-b border-neutral-200 bg-neutral-100 px-4 py-2 print:hidden"
        data-testid="print-toolbar"
      >
        <Link to={`/mine/statements?${rangeQuery(range)}`} className="rounded-lg px-3 py-2 text-sm text-neutral-800 hover:bg-neutral-200">
          {t('common.back')}
        </Link>
        <Button className="ms-auto" onClick={() => window.print()} disabled={!data}>
          {t('statements.print')}
        </Button>
      </div>
      <main className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-6 print:max-w-none print:p-0">
        <header className="flex flex-wrap items-end gap-x-6 gap-y-2 border-b border-neutral-300 pb-4">
          <div className="flex flex-col gap-1">
            <span className="text-sm font-semibold">{t('common.app_name')}</span>
            <h1 className="text-xl font-bold">{t('statements.statement_title')}</h1>
          </div>
          <dl className="ms-auto grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5 text-sm">
            {user && (
              <>
                <dt className="text-neutral-600">{t('statements.account')}</dt>
                <dd>{user.email ? `${user.email} · ${user.uid}` : user.uid}</dd>
              </>
            )}
            <dt className="text-neutral-600">{t('statements.period')}</dt>
            <dd dir="ltr" className="text-start">
              {range.from} – {range.to}
            </dd>
            <dt className="text-neutral-600">{t('statements.time_zone')}</dt>
            <dd dir="ltr" className="text-start">
              {utcOffsetLabel()}
            </dd>
            <dt className="text-neutral-600">{t('statements.currency')}</dt>
            <dd>{data?.currency ?? 'USD'}</dd>
            <dt className="text-neutral-600">{t('statements.generated')}</dt>
            <dd>{formatDateTime(Date.now())}</dd>
          </dl>
        </header>
        {!check.ok ? (
          <p role="alert">{t(`statements.${check.error}`, { max: MAX_DAYS })}</p>
        ) : statement.isError ? (
          <ErrorState onRetry={() => void statement.refetch()} />
        ) : !data ? (
          <div className="flex justify-center py-16" role="status" aria-label={t('common.loading')}>
            <Spinner />
          </div>
        ) : (
          <>
            {data.truncated && <p className="text-sm">{t('statements.truncated')}</p>}
            <StatementSummary data={data} print />
            <StatementLog rows={data.log} print />
            <StatementPositions data={data} print />
          </>
        )}
      </main>
    </div>
  );
}
