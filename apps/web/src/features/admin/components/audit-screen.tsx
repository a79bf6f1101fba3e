import { useState, type FormEvent } from 'react';
import * as api from '@tp/contract/endpoints/admin';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/format';
import { useStaffQuery } from '../api/admin-client';
import { auditDiff, type DiffRow } from '../lib/audit-diff';
import { ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';

const FILTERS = ['action', 'target_type', 'target_id'] as const;
const rawJson = (v: unknown) => (v === null || v === undefined ? '—' : JSON.stringify(v, null, 2));

/** The staff audit log (admin): who did what to which target, as a field-by-field diff; nobody can edit it. */
export function AuditScreen() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [filter, setFilter] = useState<Record<string, string>>({});
  const [page, setPage] = useState(1);
  const q = useStaffQuery(api.auditList, { ...filter, page, limit: 20 });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilter(draft);
    setPage(1);
  };
  return (
    <section>
      <ScreenTitle>{t('admin.nav.audit')}</ScreenTitle>
      <form onSubmit={apply} className="mb-3 flex flex-wrap items-end gap-2" aria-label={t('admin.filters')}>
        {FILTERS.map((f) => (
          <label key={f} className="flex flex-col gap-1 text-sm">
            <span className="text-muted">{t(adminKey(`admin.f.${f}`))}</span>
            <input
              className="rounded-lg border border-border bg-surface px-3 py-2"
              value={draft[f] ?? ''}
              onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}
            />
          </label>
        ))}
        <Button type="submit">{t('common.search')}</Button>
      </form>
      <DataTable
        {...tableState(q)}
        label={t('admin.nav.audit')}
        limit={20}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.id}
        columns={[
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
          { key: 'who', label: t('admin.f.staff'), render: (r) => r.staff_email },
          { key: 'action', label: t('admin.f.action'), render: (r) => r.action },
          { key: 'target', label: t('admin.f.target_type'), render: (r) => `${r.target_type} #${r.target_id}` },
          {
            key: 'changes',
            label: t('admin.audit.changes'),
            className: 'min-w-72 max-w-xl',
            render: (r) => <AuditChanges before={r.before} after={r.after} />,
          },
        ]}
      />
    </section>
  );
}

/** One entry's changes, field: old → new, with the raw JSON behind a details toggle. */
export function AuditChanges({ before, after }: { before: unknown; after: unknown }) {
  const { t } = useTranslation();
  const rows = auditDiff(before, after);
  return (
    <div className="flex flex-col gap-2">
      {rows.length === 0 ? (
        <p className="text-muted">{t('admin.audit.no_changes')}</p>
      ) : (
        <ul className="flex flex-col gap-1.5" aria-label={t('admin.audit.changes')}>
          {rows.map((row) => (
            <DiffLine key={row.path} row={row} />
          ))}
        </ul>
      )}
      <details className="text-xs">
        <summary className="cursor-pointer text-muted">{t('admin.audit.details')}</summary>
        <div className="mt-1 grid gap-2 md:grid-cols-2">
          {(['before', 'after'] as const).map((side) => (
            <div key={side}>
              <p className="text-muted">{t(`admin.f.${side}`)}</p>
              <pre dir="ltr" className="rounded-lg bg-surface-2 p-2 text-start break-all whitespace-pre-wrap">
                {rawJson(side === 'before' ? before : after)}
              </pre>
            </div>
          ))}
        </div>
      </details>
    </div>
  );
}

const KIND_CLASS: Record<DiffRow['kind'], string> = {
  added: 'border-up bg-up/10',
  removed: 'border-down bg-down/10',
  changed: 'border-border',
};

/** A field's path, a badge when it was added or removed, and its values; long values wrap. */
function DiffLine({ row }: { row: DiffRow }) {
  const { t, i18n } = useTranslation();
  const arrow = i18n.dir() === 'rtl' ? '←' : '→';
  return (
    // relative: the screen-reader labels (absolutely placed) stay inside the table's own sideways scroll.
    <li className={`relative rounded-md border-s-4 px-2 py-1 text-xs ${KIND_CLASS[row.kind]}`} data-kind={row.kind}>
      <span className="flex flex-wrap items-baseline gap-x-2">
        <code dir="ltr" className="font-semibold break-all">
          {row.path || t('admin.audit.value')}
        </code>
        {row.kind !== 'changed' && (
          <span className={`font-medium ${row.kind === 'added' ? 'text-up' : 'text-down'}`}>{t(`admin.audit.${row.kind}`)}</span>
        )}
      </span>
      <span className="mt-0.5 flex flex-wrap items-baseline gap-x-1.5">
        {row.before !== undefined && (
          <span className={row.kind === 'removed' ? '' : 'text-muted line-through'}>
            <span className="sr-only">{t('admin.f.before')}: </span>
            <bdi className="break-all whitespace-pre-wrap">{row.before}</bdi>
          </span>
        )}
        {row.kind === 'changed' && <span aria-hidden="true">{arrow}</span>}
        {row.after !== undefined && (
          <span>
            <span className="sr-only">{t('admin.f.after')}: </span>
            <bdi className="break-all whitespace-pre-wrap">{row.after}</bdi>
          </span>
        )}
      </span>
    </li>
  );
}
