import { BALANCE_DECIMALS, PROFIT_DECIMALS } from '@tp/contract/constants';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { formatDateTime, formatNumber } from '../../../lib/format';
import type { Statement, StatementLogRow, StatementPosition } from '../api/get-statement';

/** An amount with its significant decimals: at least the balance's 2, at most the profit's 6. */
export function formatAmount(value: string): string {
  const fraction = value.includes('.') ? value.split('.')[1]!.replace(/0+$/, '') : '';
  return formatNumber(value, Math.max(BALANCE_DECIMALS, Math.min(fraction.length, PROFIT_DECIMALS)));
}

const sign = (value: string) => (value.trim().startsWith('-') ? -1 : /^[+]?0*\.?0*$/.test(value.trim()) ? 0 : 1);

const REASONS = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

/** The closing reason's label key (1 to 9; 7-9 are the copier's closes), or null. */
export const reasonKey = (closedType: number) => {
  const known = REASONS.find((r) => r === closedType);
  return known ? (`statements.closed_type_${known}` as const) : null;
};

/** On screen amounts are green or red; on paper they stay black. */
function Amount({ value, print, plus = false }: { value: string; print: boolean; plus?: boolean }) {
  const s = sign(value);
  const colour = print || s === 0 ? '' : s < 0 ? 'text-down' : 'text-up';
  return (
    <span className={`tabular-nums ${colour}`} dir="ltr">
      {plus && s > 0 ? '+' : ''}
      {formatAmount(value)}
    </span>
  );
}

const time = (seconds: number) => formatDateTime(seconds * 1000);

/** Opening and closing balance, and the period's sums by kind. */
export function StatementSummary({ data, print = false }: { data: Statement; print?: boolean }) {
  const { t } = useTranslation();
  const items = [
    ['total_deposit', data.totals.deposit],
    ['total_withdrawal', data.totals.withdrawal],
    ['total_profit', data.totals.profit],
    ['total_fee', data.totals.fee],
    ['total_swap', data.totals.swap],
    ['total_adjustment', data.totals.adjustment],
  ] as const;
  const box = print ? 'border border-neutral-300' : 'bg-surface';
  return (
    <section aria-labelledby="statement-summary" className="flex flex-col gap-3">
      <h2 id="statement-summary" className="sr-only">
        {t('statements.summary')}
      </h2>
      <dl className={`grid gap-2 rounded-xl p-4 sm:grid-cols-3 sm:gap-3 ${box}`} data-testid="statement-balances">
        <div className="flex items-baseline justify-between gap-2 sm:flex-col sm:items-start sm:justify-start sm:gap-1">
          <dt className={`text-xs ${print ? '' : 'text-muted'}`}>{t('statements.opening_balance')}</dt>
          <dd className="font-semibold tabular-nums sm:text-lg">
            <span dir="ltr">{formatNumber(data.opening_balance, BALANCE_DECIMALS)}</span>
          </dd>
        </div>
        <div className="flex items-baseline justify-between gap-2 sm:flex-col sm:items-start sm:justify-start sm:gap-1">
          <dt className={`text-xs ${print ? '' : 'text-muted'}`}>{t('statements.net_change')}</dt>
          <dd className="font-semibold sm:text-lg">
            <Amount value={data.totals.net_change} print={print} plus />
          </dd>
        </div>
        <div className="flex items-baseline justify-between gap-2 sm:flex-col sm:items-start sm:justify-start sm:gap-1">
          <dt className={`text-xs ${print ? '' : 'text-muted'}`}>{t('statements.closing_balance')}</dt>
          <dd className="font-semibold tabular-nums sm:text-lg">
            <span dir="ltr">{formatNumber(data.closing_balance, BALANCE_DECIMALS)}</span>
          </dd>
        </div>
      </dl>
      <dl className={`grid gap-x-8 gap-y-2 rounded-xl p-4 text-sm sm:grid-cols-2 lg:grid-cols-3 ${box}`} data-testid="statement-totals">
        {items.map(([key, value]) => (
          <div key={key} className="flex items-center justify-between gap-2">
            <dt className={print ? '' : 'text-muted'}>{t(`statements.${key}`)}</dt>
            <dd>
              <Amount value={value} print={print} />
            </dd>
          </div>
        ))}
      </dl>
      <p className={`text-xs ${print ? '' : 'text-muted'}`}>{t('statements.balance_note')}</p>
    </section>
  );
}

/** Cells: roomy on screen, tight on paper (eleven columns fit an A4 page). */
const th = 'px-3 py-2 text-start font-medium whitespace-nowrap print:px-1.5 print:py-1 print:whitespace-normal';
const thNum = 'px-3 py-2 text-end font-medium whitespace-nowrap print:px-1.5 print:py-1 print:whitespace-normal';
const td = 'px-3 py-2 whitespace-nowrap print:px-1.5 print:py-1 print:whitespace-normal';
const tdNum = 'px-3 py-2 text-end whitespace-nowrap print:px-1.5 print:py-1';

/** The period's balance changes: cards on a phone, a table on a wide screen and on paper. */
export function StatementLog({ rows, print = false }: { rows: StatementLogRow[]; print?: boolean }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="statement-log" className="flex flex-col gap-2">
      <h2 id="statement-log" className={`text-sm font-medium ${print ? '' : 'text-muted'}`}>
        {t('statements.log_title')}
      </h2>
      {rows.length === 0 ? (
        <EmptyState message={t('statements.log_empty')} />
      ) : (
        <>
          {!print && (
            <ul className="divide-y divide-border rounded-xl border border-border md:hidden" data-testid="statement-log-cards">
              {rows.map((r) => (
                <li key={r.Id} className="flex items-center gap-3 px-4 py-3">
                  <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                    <span className="truncate">{r.MemoTran || r.Memo}</span>
                    <span className="text-xs text-muted">{time(r.CreatedAt)}</span>
                  </span>
                  <span className="flex flex-col items-end gap-0.5">
                    <Amount value={r.Value} print={print} plus />
                    <span className="text-xs text-muted tabular-nums" dir="ltr">
                      {formatNumber(r.Balance, BALANCE_DECIMALS)}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          )}
          {/* Scrolls sideways when wider than the page: focusable so a keyboard can scroll it. */}
          <div
            role="region"
            aria-labelledby="statement-log"
            tabIndex={0}
            className={print ? 'overflow-x-auto print:overflow-visible' : 'hidden overflow-x-auto rounded-xl border border-border md:block'}
          >
            <table className={`w-full border-collapse ${print ? 'text-xs' : 'text-sm'}`} data-testid="statement-log-table">
              <thead className={print ? 'border-b border-neutral-400' : 'bg-surface text-muted'}>
                <tr>
                  <th scope="col" className={th}>
                    {t('statements.col_time')}
                  </th>
                  <th scope="col" className={th}>
                    {t('statements.col_description')}
                  </th>
                  <th scope="col" className={thNum}>
                    {t('statements.col_amount')}
                  </th>
                  <th scope="col" className={thNum}>
                    {t('statements.col_balance')}
                  </th>
                </tr>
              </thead>
              <tbody className={print ? 'divide-y divide-neutral-200' : 'divide-y divide-border'}>
                {rows.map((r) => (
                  <tr key={r.Id}>
                    <td className={`${td} tabular-nums`}>{time(r.CreatedAt)}</td>
                    <td className="px-3 py-2 print:px-1.5 print:py-1">{r.MemoTran || r.Memo}</td>
                    <td className={tdNum}>
                      <Amount value={r.Value} print={print} plus />
                    </td>
                    <td className={`${tdNum} tabular-nums`}>
                      <span dir="ltr">{formatNumber(r.Balance, BALANCE_DECIMALS)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function Side({ position }: { position: StatementPosition }) {
  const { t } = useTranslation();
  return <>{t(position.OrderType === 1 ? 'statements.buy' : 'statements.sell')}</>;
}

function Reason({ position }: { position: StatementPosition }) {
  const { t } = useTranslation();
  const key = reasonKey(position.ClosedType);
  return <>{key ? t(key) : ''}</>;
}

/** The positions closed in the period with their totals. */
export function StatementPositions({ data, print = false }: { data: Statement; print?: boolean }) {
  const { t } = useTranslation();
  const rows = data.positions;
  const totals = data.position_totals;
  return (
    <section aria-labelledby="statement-positions" className="flex flex-col gap-2">
      <h2 id="statement-positions" className={`text-sm font-medium ${print ? '' : 'text-muted'}`}>
        {t('statements.positions_title')}
      </h2>
      {rows.length === 0 ? (
        <EmptyState message={t('statements.positions_empty')} />
      ) : (
        <>
          {!print && (
            <ul className="divide-y divide-border rounded-xl border border-border md:hidden" data-testid="statement-position-cards">
              {rows.map((p) => (
                <li key={p.Id} className="flex flex-col gap-1.5 px-4 py-3">
                  <div className="flex items-center gap-2">
                    <span className="font-medium">{p.ShowCode}</span>
                    <span className={`text-xs ${p.OrderType === 1 ? 'text-up' : 'text-down'}`}>
                      <Side position={p} /> <span dir="ltr">{p.Quantity}</span>
                    </span>
                    <span className="ms-auto">
                      <Amount value={p.FactProfits} print={false} plus />
                    </span>
                  </div>
                  <div className="flex items-center gap-2 text-xs text-muted">
                    <span className="tabular-nums" dir="ltr">
                      {formatNumber(p.OpenPrice, p.PricePrecision)} → {formatNumber(p.ClosePrice, p.PricePrecision)}
                    </span>
                    <span className="tabular-nums" dir="ltr">
                      {t('statements.points_value', { points: formatNumber(p.Points, 0) })}
                    </span>
                    <span className="ms-auto">
                      <Reason position={p} />
                    </span>
                  </div>
                  <div className="flex items-center gap-3 text-xs text-muted">
                    <span>{time(p.CloseTime)}</span>
                    <span className="ms-auto">
                      {t('statements.col_fee')} <span dir="ltr">{formatAmount(p.TradeFee)}</span>
                    </span>
                    <span>
                      {t('statements.col_swap')} <span dir="ltr">{formatAmount(p.Swap)}</span>
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          )}
          {/* Scrolls sideways when wider than the page: focusable so a keyboard can scroll it. */}
          <div
            role="region"
            aria-labelledby="statement-positions"
            tabIndex={0}
            className={print ? 'overflow-x-auto print:overflow-visible' : 'hidden overflow-x-auto rounded-xl border border-border md:block'}
          >
            <table className={`w-full border-collapse ${print ? 'text-xs' : 'text-sm'}`} data-testid="statement-positions-table">
              <thead className={print ? 'border-b border-neutral-400' : 'bg-surface text-muted'}>
                <tr>
                  <th scope="col" className={th}>
                    {t('statements.col_close_time')}
                  </th>
                  <th scope="col" className={th}>
                    {t('statements.col_symbol')}
                  </th>
                  <th scope="col" className={th}>
                    {t('statements.col_side')}
                  </th>
                  <th scope="col" className={thNum}>
                    {t('statements.col_lots')}
                  </th>
                  <th scope="col" className={thNum}>
                    {t('statements.col_open_price')}
                  </th>
                  <th scope="col" className={thNum}>
                    {t('statements.col_close_price')}
                  </th>
                  <th scope="col" className={thNum}>
                    {t('statements.col_points')}
                  </th>
                  <th scope="col" className={thNum}>
                    {t('statements.col_fee')}
                  </th>
                  <th scope="col" className={thNum}>
                    {t('statements.col_swap')}
                  </th>
                  <th scope="col" className={thNum}>
                    {t('statements.col_profit')}
                  </th>
                  <th scope="col" className={th}>
                    {t('statements.col_reason')}
                  </th>
                </tr>
              </thead>
              <tbody className={print ? 'divide-y divide-neutral-200' : 'divide-y divide-border'}>
                {rows.map((p) => (
                  <tr key={p.Id}>
                    <td className={`${td} tabular-nums`}>{time(p.CloseTime)}</td>
                    <td className={`${td} font-medium`}>{p.ShowCode}</td>
                    <td className={`${td} ${print ? '' : p.OrderType === 1 ? 'text-up' : 'text-down'}`}>
                      <Side position={p} />
                    </td>
                    <td className={`${tdNum} tabular-nums`}>
                      <span dir="ltr">{p.Quantity}</span>
                    </td>
                    <td className={`${tdNum} tabular-nums`}>
                      <span dir="ltr">{formatNumber(p.OpenPrice, p.PricePrecision)}</span>
                    </td>
                    <td className={`${tdNum} tabular-nums`}>
                      <span dir="ltr">{formatNumber(p.ClosePrice, p.PricePrecision)}</span>
                    </td>
                    <td className={`${tdNum} tabular-nums`}>
                      <span dir="ltr">{formatNumber(p.Points, 0)}</span>
                    </td>
                    <td className={tdNum}>
                      <Amount value={p.TradeFee} print />
                    </td>
                    <td className={tdNum}>
                      <Amount value={p.Swap} print />
                    </td>
                    <td className={tdNum}>
                      <Amount value={p.FactProfits} print={print} plus />
                    </td>
                    <td className={td}>
                      <Reason position={p} />
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot className={print ? 'border-t border-neutral-400 font-medium' : 'border-t border-border bg-surface font-medium'}>
                <tr>
                  <th scope="row" className={th} colSpan={3}>
                    {t('statements.positions_count', { count: totals.count })}
                  </th>
                  <td className={`${tdNum} tabular-nums`}>
                    <span dir="ltr">{totals.lots}</span>
                  </td>
                  <td colSpan={3} />
                  <td className={tdNum}>
                    <Amount value={totals.fee} print />
                  </td>
                  <td className={tdNum}>
                    <Amount value={totals.swap} print />
                  </td>
                  <td className={tdNum}>
                    <Amount value={totals.profit} print={print} plus />
                  </td>
                  <td />
                </tr>
              </tfoot>
            </table>
          </div>
          {!print && (
            <p className="flex flex-wrap gap-x-4 gap-y-1 px-1 text-sm md:hidden" data-testid="statement-position-totals">
              <span>{t('statements.positions_count', { count: totals.count })}</span>
              <span>
                {t('statements.col_lots')} <span dir="ltr">{totals.lots}</span>
              </span>
              <span className="ms-auto">
                {t('statements.col_profit')} <Amount value={totals.profit} print={false} plus />
              </span>
            </p>
          )}
        </>
      )}
    </section>
  );
}
