import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorState } from '../../../components/ui/error-state';
import { PageHeader } from '../../../components/ui/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { ApiError } from '../../../lib/api-client';
import { useStatement } from '../api/get-statement';
import { csvFileName, downloadText, statementCsv } from './statement-csv';
import { type DateRange, MAX_DAYS, PRESETS, presetOf, presetRange, rangeBounds, rangeFromQuery, rangeQuery } from './statement-range';
import { StatementLog, StatementPositions, StatementSummary } from './statement-view';

/** Presets and the two dates; the range lives in the address, so a reload or a shared link keeps it. */
function RangePicker({ range, onChange }: { range: DateRange; onChange: (range: DateRange) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const active = presetOf(range);
  return (
    <fieldset className="flex flex-col gap-3 rounded-xl bg-surface p-4">
      <legend className="sr-only">{t('statements.period')}</legend>
      <div role="group" aria-label={t('statements.presets')} className="flex flex-wrap gap-2">
        {PRESETS.map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={active === p}
            onClick={() => onChange(presetRange(p))}
            className={`rounded-full px-3 py-1.5 text-sm ${active === p ? 'bg-accent text-on-accent' : 'bg-surface-2 text-text hover:bg-border'}`}
          >
            {t(`statements.preset_${p}`)}
          </button>
        ))}
      </div>
      <div className="grid grid-cols-2 gap-3 sm:max-w-md">
        <label htmlFor={`${id}-from`} className="flex flex-col gap-1 text-xs text-muted">
          {t('statements.from')}
          <input
            id={`${id}-from`}
            type="date"
            value={range.from}
            max={range.to || undefined}
            onChange={(e) => e.target.value && onChange({ ...range, from: e.target.value })}
            className="rounded-lg border border-border bg-bg px-3 py-2 text-sm text-text"
          />
        </label>
        <label htmlFor={`${id}-to`} className="flex flex-col gap-1 text-xs text-muted">
          {t('statements.to')}
          <input
            id={`${id}-to`}
            type="date"
            value={range.to}
            min={range.from || undefined}
            onChange={(e) => e.target.value && onChange({ ...range, to: e.target.value })}
            className="rounded-lg border border-border bg-bg px-3 py-2 text-sm text-text"
          />
        </label>
      </div>
    </fieldset>
  );
}

/** /mine/statements: the account log and closed positions of a period, as CSV or a printable page. */
export function StatementsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const range = useMemo(() => rangeFromQuery(params), [params]);
  const check = rangeBounds(range);
  const statement = useStatement(check.ok ? check.bounds : null);
  const data = check.ok ? statement.data : undefined;
  const ready = check.ok && statement.isSuccess && !statement.isPlaceholderData;

  const download = () => {
    if (!data) return;
    downloadText(
      statementCsv(data, range, (key) => t(`statements.${key}` as 'statements.period')),
      csvFileName(range),
    );
  };

  return (
    <>
      <PageHeader title={t('pages.statements')} />
      <div className="mx-auto flex w-full max-w-5xl flex-col gap-4 p-4">
        <RangePicker range={range} onChange={(next) => setParams(rangeQuery(next), { replace: true })} />
        {!check.ok && (
          <p role="alert" className="rounded-lg bg-down/10 px-4 py-3 text-sm text-down">
            {t(`statements.${check.error}`, { max: MAX_DAYS })}
          </p>
        )}
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={download} disabled={!ready}>
            {t('statements.download_csv')}
          </Button>
          {ready ? (
            <Link
              to={`/mine/statements/print?${rangeQuery(range)}`}
              className="inline-flex items-center justify-center rounded-lg bg-surface-2 px-4 py-2.5 text-sm font-medium text-text hover:bg-border"
            >
              {t('statements.print')}
            </Link>
          ) : (
            <Button variant="secondary" disabled>
              {t('statements.print')}
            </Button>
          )}
        </div>
        {!check.ok ? null : statement.isPending ? (
          <SkeletonRows rows={6} />
        ) : statement.isError ? (
          <ErrorState
            message={statement.error instanceof ApiError && statement.error.kind === 'business' ? statement.error.message : undefined}
            onRetry={() => void statement.refetch()}
          />
        ) : data ? (
          <div className={`flex flex-col gap-6 ${statement.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={statement.isFetching}>
            {data.truncated && (
              <p role="status" className="rounded-lg bg-accent/10 px-4 py-3 text-sm text-accent">
                {t('statements.truncated')}
              </p>
            )}
            <StatementSummary data={data} />
            <StatementLog rows={data.log} />
            <StatementPositions data={data} />
          </div>
        ) : null}
      </div>
    </>
  );
}
