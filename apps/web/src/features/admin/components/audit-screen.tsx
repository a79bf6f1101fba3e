import { useState, type FormEvent } from 'react';
import * as api from '@tp/contract/endpoints/admin';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/format';
import { useStaffQuery } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';

const FILTERS = ['action', 'target_type', 'target_id'] as const;
const show = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/** The staff audit log (admin): who did what to which target, before and after; nobody can edit it. */
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
            key: 'before',
            label: t('admin.f.before'),
            render: (r) => <code className="block max-w-xs text-xs break-all">{show(r.before)}</code>,
          },
          {
            key: 'after',
            label: t('admin.f.after'),
            render: (r) => <code className="block max-w-xs text-xs break-all">{show(r.after)}</code>,
          },
        ]}
      />
    </section>
  );
}
