import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import type { z } from 'zod';
import type { StaffDepositSchema } from '@tp/contract/schemas/funding';
import { Button } from '../../../components/ui/button';
import { formatDateTime, formatMoney } from '../../../lib/format';
import * as fundingApi from '@tp/contract/endpoints/funding';
import { useStaffQuery, useStaffMutation } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, StatusFilter, tableState } from './data-table';
import { PromptDialog } from './prompt-dialog';

type Deposit = z.infer<typeof StaffDepositSchema>;
type Action = 'approve' | 'reject' | 'invalid';

/**
 * Deposit review queue: the proof (flagged when the same picture backs another claim), approve with
 * the confirmed amount, reject with a remark, or mark invalid.
 */
export function DepositsScreen() {
  const { t } = useTranslation();
  const [status, setStatus] = useState('0');
  const [page, setPage] = useState(1);
  const [acting, setActing] = useState<{ row: Deposit; action: Action } | null>(null);
  const q = useStaffQuery(fundingApi.staffDeposits, { status, page });
  const approve = useStaffMutation(fundingApi.approveDeposit);
  const reject = useStaffMutation(fundingApi.rejectDeposit);
  const invalid = useStaffMutation(fundingApi.invalidateDeposit);
  const done = () => setActing(null);
  const run = (value: string) => {
    if (!acting) return;
    const id = acting.row.id;
    if (acting.action === 'approve') approve.mutate({ id, amount: value }, { onSuccess: done });
    else if (acting.action === 'reject') reject.mutate({ id, remark: value }, { onSuccess: done });
    else invalid.mutate({ id }, { onSuccess: done });
  };
  const who = (r: Deposit) => r.user.email || r.user.mobile || r.user.uid;
  return (
    <section>
      <ScreenTitle>{t('admin.nav.deposits')}</ScreenTitle>
      <div className="mb-3">
        <StatusFilter
          label={t('admin.f.status')}
          value={status}
          options={['0', '1', '2', '3'].map((s) => [s, t(adminKey(`admin.deposit_status.${s}`))])}
          onChange={(v) => (setStatus(v), setPage(1))}
        />
      </div>
      <DataTable
        {...tableState(q)}
        label={t('admin.nav.deposits')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.id}
        columns={[
          { key: 'id', label: t('admin.f.id'), render: (r) => `#${r.id}` },
          { key: 'user', label: t('admin.f.user'), render: who },
          { key: 'type', label: t('admin.f.type'), render: (r) => t(adminKey(`admin.deposit_type.${r.type}`)) },
          { key: 'amount', label: t('admin.f.amount'), render: (r) => `${formatMoney(r.number)} ${r.currency_code}` },
          { key: 'to', label: t('admin.f.address'), render: (r) => <span className="break-all">{r.address}</span> },
          {
            key: 'proof',
            label: t('admin.f.proof'),
            render: (r) => (
              <>
                <a href={r.proof_img} target="_blank" rel="noreferrer">
                  <img src={r.proof_img} alt={t('admin.proof_of', { who: who(r) })} className="h-16 w-24 rounded object-cover" />
                </a>
                {r.proof_reused && (
                  <p className="mt-1 max-w-40 text-xs font-semibold text-down" data-testid="proof-reused">
                    ⚠ {t('admin.proof_reused', { ids: r.proof_reused_by.map((id) => `#${id}`).join(', ') })}
                  </p>
                )}
              </>
            ),
          },
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
          {
            key: 'status',
            label: t('admin.f.status'),
            render: (r) =>
              t(adminKey(`admin.deposit_status.${r.status}`)) +
              (r.remark ? ` · ${r.remark}` : '') +
              (r.credited_usd ? ` · ${formatMoney(r.credited_usd)} USD` : ''),
          },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (r) =>
              r.status === 0 && (
                <div className="flex flex-wrap gap-2">
                  <Button onClick={() => setActing({ row: r, action: 'approve' })} aria-label={t('admin.approve_for', { who: who(r) })}>
                    {t('admin.approve')}
                  </Button>
                  <Button
                    variant="danger"
                    onClick={() => setActing({ row: r, action: 'reject' })}
                    aria-label={t('admin.reject_for', { who: who(r) })}
                  >
                    {t('admin.reject')}
                  </Button>
                  <Button
                    variant="secondary"
                    onClick={() => setActing({ row: r, action: 'invalid' })}
                    aria-label={t('admin.invalid_for', { who: who(r) })}
                  >
                    {t('admin.mark_invalid')}
                  </Button>
                </div>
              ),
          },
        ]}
      />
      {acting && (
        <PromptDialog
          title={t(acting.action === 'invalid' ? 'admin.mark_invalid' : `admin.${acting.action}`)}
          label={acting.action === 'approve' ? t('admin.f.confirmed_amount') : acting.action === 'reject' ? t('admin.f.remark') : undefined}
          initial={acting.action === 'approve' ? acting.row.number : ''}
          danger={acting.action !== 'approve'}
          busy={approve.isPending || reject.isPending || invalid.isPending}
          onCancel={done}
          onConfirm={run}
        >
          <p>
            {who(acting.row)} · {formatMoney(acting.row.number)} {acting.row.currency_code}
          </p>
        </PromptDialog>
      )}
    </section>
  );
}
