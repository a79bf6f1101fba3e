import type { Statement } from '../api/get-statement';
import { type DateRange, isoLocalTime, utcOffsetLabel } from './statement-range';

/** Text for a CSV: column headers and words in the trader's language (t('statements.<key>')). */
export type Label = (key: string) => string;

/** Excel reads a UTF-8 file as UTF-8 (Arabic, Chinese) only when it starts with this mark. */
export const BOM = '\uFEFF';

/** A number as the server sent it ("-12.500000"): a dot for decimals in every language, no grouping. */
const num = (value: string | number) => String(value);

/** A text cell that a spreadsheet would run as a formula (=, +, -, @) is kept as text. */
const safeText = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const line = (cells: string[]) => cells.map(cell).join(',');

/**
 * The statement as one CSV file: a summary, the balance changes and the closed positions, each with
 * its header row in the trader's language; numbers and times are the same in every language
 * (decimal point, "YYYY-MM-DD HH:mm:ss" local time, the offset given in the summary).
 */
export function statementCsv(s: Statement, range: DateRange, label: Label, now: Date = new Date()): string {
  const rows: string[][] = [];
  rows.push([label('statement_title')]);
  rows.push([label('period'), range.from, range.to]);
  rows.push([label('time_zone'), utcOffsetLabel(now)]);
  rows.push([label('currency'), s.currency]);
  rows.push([]);
  rows.push([label('opening_balance'), num(s.opening_balance)]);
  for (const key of ['deposit', 'withdrawal', 'profit', 'fee', 'swap', 'adjustment'] as const)
    rows.push([label(`total_${key}`), num(s.totals[key])]);
  rows.push([label('net_change'), num(s.totals.net_change)]);
  rows.push([label('closing_balance'), num(s.closing_balance)]);
  rows.push([]);

  rows.push([label('log_title')]);
  rows.push([label('col_time'), label('col_description'), label('col_type'), label('col_amount'), label('col_balance')]);
  for (const r of s.log) rows.push([isoLocalTime(r.CreatedAt), safeText(r.MemoTran || r.Memo), r.Type, num(r.Value), num(r.Balance)]);
  rows.push([]);

  rows.push([label('positions_title')]);
  rows.push([
    label('col_order'),
    label('col_open_time'),
    label('col_close_time'),
    label('col_symbol'),
    label('col_side'),
    label('col_lots'),
    label('col_open_price'),
    label('col_close_price'),
    label('col_points'),
    label('col_fee'),
    label('col_swap'),
    label('col_profit'),
    label('col_reason'),
  ]);
  for (const p of s.positions) {
    rows.push([
      String(p.Id),
      isoLocalTime(p.OpenTime),
      isoLocalTime(p.CloseTime),
      safeText(p.ShowCode),
      label(p.OrderType === 1 ? 'buy' : 'sell'),
      num(p.Quantity),
      num(p.OpenPrice),
      num(p.ClosePrice),
      num(p.Points),
      num(p.TradeFee),
      num(p.Swap),
      num(p.FactProfits),
      p.ClosedType >= 1 && p.ClosedType <= 9 ? label(`closed_type_${p.ClosedType}`) : '',
    ]);
  }
  const pt = s.position_totals;
  rows.push([label('totals'), '', '', '', '', num(pt.lots), '', '', '', num(pt.fee), num(pt.swap), num(pt.profit), '']);
  if (s.truncated) rows.push([], [label('truncated_short')]);
  return BOM + rows.map(line).join('\r\n') + '\r\n';
}

/** statement_2026-11-01_2026-11-30.csv */
export const csvFileName = (range: DateRange) => `statement_${range.from}_${range.to}.csv`;

/** Saves text as a file through the browser's download. */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
