import type { OutputOf } from '@tp/contract/endpoint';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { formatDateTime } from '../../../lib/format';
import * as identityApi from '@tp/contract/endpoints/identity';
import { useStaffQuery, useStaffMutation } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, StatusFilter, tableState } from './data-table';
import { PromptDialog } from './prompt-dialog';
import { Button } from '../../../components/ui/button';

type IdentityRow = OutputOf<typeof identityApi.adminIdentityList>['data'][number];

/** Identity review queue: both images, approve, reject with a reason. */
export function IdentityScreen() {
  const { t } = useTranslation();
  const [status, setStatus] = useState('1');
  const [page, setPage] = useState(1);
  const [acting, setActing] = useState<{ row: IdentityRow; action: 'approve' | 'reject' } | null>(null);
  const q = useStaffQuery(identityApi.adminIdentityList, { status, page });
  const approve = useStaffMutation(identityApi.adminIdentityApprove);
  const reject = useStaffMutation(identityApi.adminIdentityReject);
  const statuses: [string, string][] = ['1', '2', '3'].map((s) => [s, t(adminKey(`admin.identity_status.${s}`))]);
  const done = () => setActing(null);
  return (
    <section>
      <ScreenTitle>{t('admin.nav.identity')}</ScreenTitle>
      <div className="mb-3">
        <StatusFilter label={t('admin.f.status')} value={status} options={statuses} onChange={(v) => (setStatus(v), setPage(1))} />
      </div>
      <DataTable
        {...tableState(q)}
        label={t('admin.nav.identity')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.user_id}
        columns={[
          { key: 'user', label: t('admin.f.user'), render: (r) => r.email || r.mobile },
          { key: 'name', label: t('admin.f.name'), render: (r) => r.name },
          { key: 'card', label: t('admin.f.card_id'), render: (r) => r.card_id },
          {
            key: 'pics',
            label: t('admin.f.images'),
            render: (r) => (
              <div className="flex gap-2">
                <a href={r.front_pic} target="_blank" rel="noreferrer">
                  <img src={r.front_pic} alt={t('admin.front_image', { name: r.name })} className="h-16 w-24 rounded object-cover" />
                </a>
                <a href={r.reverse_pic} target="_blank" rel="noreferrer">
                  <img src={r.reverse_pic} alt={t('admin.back_image', { name: r.name })} className="h-16 w-24 rounded object-cover" />
                </a>
              </div>
            ),
          },
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.submitted_at) },
          {
            key: 'status',
            label: t('admin.f.status'),
            render: (r) => t(adminKey(`admin.identity_status.${r.review_status}`)) + (r.reject_reason ? ` · ${r.reject_reason}` : ''),
          },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (r) =>
              r.review_status === 1 && (
                <div className="flex gap-2">
                  <Button onClick={() => setActing({ row: r, action: 'approve' })} aria-label={t('admin.approve_for', { who: r.name })}>
                    {t('admin.approve')}
                  </Button>
                  <Button
                    variant="danger"
                    onClick={() => setActing({ row: r, action: 'reject' })}
                    aria-label={t('admin.reject_for', { who: r.name })}
                  >
                    {t('admin.reject')}
                  </Button>
                </div>
              ),
          },
        ]}
      />
      {acting && (
        <PromptDialog
          title={acting.action === 'approve' ? t('admin.approve') : t('admin.reject')}
          label={acting.action === 'reject' ? t('admin.f.reason') : undefined}
          danger={acting.action === 'reject'}
          busy={approve.isPending || reject.isPending}
          onCancel={done}
          onConfirm={(reason) =>
            acting.action === 'approve'
              ? approve.mutate({ user_id: acting.row.user_id }, { onSuccess: done })
              : reject.mutate({ user_id: acting.row.user_id, reason }, { onSuccess: done })
          }
        >
          <p>{acting.row.name}</p>
        </PromptDialog>
      )}
    </section>
  );
}
