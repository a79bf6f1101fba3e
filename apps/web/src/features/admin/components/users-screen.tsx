import { useState, type FormEvent } from 'react';
import * as api from '@tp/contract/endpoints/admin';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { Route, Routes, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useStaffQuery } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';
import { UserDetail } from './user-detail';

/** Users: search by email, mobile, uid or id; a row opens the user's detail. */
export function UsersScreen() {
  return (
    <Routes>
      <Route index element={<UserSearch />} />
      <Route path=":userId" element={<UserDetail />} />
    </Routes>
  );
}

function UserSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const list = useStaffQuery(api.userSearch, { q, page });
  const search = (e: FormEvent) => {
    e.preventDefault();
    setQ(draft.trim());
    setPage(1);
  };
  return (
    <section>
      <ScreenTitle>{t('admin.nav.users')}</ScreenTitle>
      <form role="search" onSubmit={search} className="mb-3 flex gap-2">
        <input
          aria-label={t('admin.user_search')}
          placeholder={t('admin.user_search')}
          className="min-w-0 flex-1 rounded-lg border border-border bg-surface px-3 py-2"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <Button type="submit">{t('common.search')}</Button>
      </form>
      <DataTable
        {...tableState(list)}
        label={t('admin.nav.users')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.id}
        columns={[
          { key: 'id', label: t('admin.f.id'), render: (r) => r.id },
          {
            key: 'user',
            label: t('admin.f.user'),
            render: (r) => (
              <button type="button" className="text-accent underline" onClick={() => navigate(`/admin/users/${r.id}`)}>
                {r.email || r.mobile || r.uid}
              </button>
            ),
          },
          { key: 'uid', label: t('admin.f.uid'), render: (r) => r.uid },
          { key: 'kind', label: t('admin.f.account'), render: (r) => t(r.is_demo ? 'admin.demo' : 'admin.real') },
          { key: 'status', label: t('admin.f.status'), render: (r) => t(adminKey(`admin.user_status.${r.status}`)) },
          { key: 'balance', label: t('admin.f.balance'), render: (r) => formatMoney(r.balance) },
          { key: 'created', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
        ]}
      />
    </section>
  );
}
