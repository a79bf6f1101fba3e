import { useState } from 'react';
import * as authApi from '@tp/contract/endpoints/auth';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { useStaffQuery } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';

/**
 * The code outbox (admin only, like its server route): emails and texts kept because no provider is
 * configured. They hold live registration and reset codes, so every page read is audited by the server.
 */
export function OutboxScreen() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useStaffQuery(authApi.adminOutbox, { page });
  return (
    <section>
      <ScreenTitle>{t('admin.nav.outbox')}</ScreenTitle>
      <p className="mb-3 max-w-2xl text-sm text-muted">{t('admin.outbox_intro')}</p>
      <DataTable
        {...tableState(q)}
        label={t('admin.nav.outbox')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.id}
        columns={[
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
          { key: 'to', label: t('admin.f.destination'), render: (r) => `${r.channel} · ${r.destination}` },
          { key: 'subject', label: t('admin.f.title'), render: (r) => r.subject },
          { key: 'body', label: t('admin.f.content'), render: (r) => <span className="whitespace-pre-wrap break-words">{r.body}</span> },
        ]}
      />
    </section>
  );
}
