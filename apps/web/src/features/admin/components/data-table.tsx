import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  className?: string;
}

interface DataTableProps<T> {
  label: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  loading: boolean;
  error: boolean;
  onRetry: () => void;
  page?: number;
  total?: number;
  limit?: number;
  onPage?: (page: number) => void;
}

/** What a list query gives a table: plain rows or a page of rows, and its loading state. */
export interface TableSource<T> {
  data: T[] | { data: T[]; total: number } | undefined;
  isLoading: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/** DataTable's rows, total and loading props from a list query: `<DataTable {...tableState(q)} … />`. */
export function tableState<T>(q: TableSource<T>) {
  const listing = q.data;
  return {
    rows: Array.isArray(listing) ? listing : listing?.data,
    total: Array.isArray(listing) ? undefined : listing?.total,
    loading: q.isLoading,
    error: q.isError,
    onRetry: () => void q.refetch(),
  };
}

/** A back office list: skeleton while loading, retry on error, 'no data' when empty, pager when paged. */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  loading,
  error,
  onRetry,
  page,
  total,
  limit = 10,
  onPage,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  if (loading) return <SkeletonRows rows={5} />;
  if (error) return <ErrorState onRetry={onRetry} />;
  if (!rows?.length) return <EmptyState />;
  const pages = total !== undefined ? Math.max(1, Math.ceil(total / limit)) : 1;
  return (
    <div className="flex flex-col gap-3">
      {/* A table wider than the screen scrolls sideways: focusable so a keyboard can scroll it. */}
      <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto rounded-xl border border-border">
        <table className="w-full text-start text-sm" aria-label={label}>
          <thead className="bg-surface-2 text-xs text-muted">
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col" className="px-3 py-2 text-start font-medium whitespace-nowrap">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {rows.map((row) => (
              <tr key={rowKey(row)} className="align-top">
                {columns.map((c) => (
                  <td key={c.key} className={`px-3 py-2 ${c.className ?? ''}`}>
                    {c.render(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {onPage && page !== undefined && pages > 1 && (
        <nav className="flex items-center justify-end gap-2 text-sm" aria-label={t('admin.pager')}>
          <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {t('admin.previous')}
          </Button>
          <span>{t('admin.page_of', { page, pages })}</span>
          <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            {t('admin.next')}
          </Button>
        </nav>
      )}
    </div>
  );
}

/** A select of status filters for review queues. */
export function StatusFilter({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: [string, string][];
  onChange: (v: string) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-muted">{label}</span>
      <select className="rounded-lg border border-border bg-surface px-2 py-1.5" value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
