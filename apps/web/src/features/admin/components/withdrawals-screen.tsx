import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import type { z } from 'zod';
import type { StaffWithdrawalSchema } from '@tp/contract/schemas/funding';
import { Button } from '../../../components/ui/button';
import { formatDateTime, formatMoney } from '../../../lib/format';
import * as fundingApi from '@tp/contract/endpoints/funding';
import { useStaffQuery, useStaffMutation } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, StatusFilter, tableState } from './data-table';
import { PromptDialog } from './prompt-dialog';

type Withdrawal = z.infer<typeof StaffWithdrawalSchema>;

/** Withdrawal review queue: approve with the transaction reference, or reject (the amount returns to the user). */
export function WithdrawalsScreen() {
  const { t } = useTranslation();
  const [status, setStatus] = useState('0');
  const [page, setPage] = useState(1);
  const [acting, setActing] = useState<{ row: Withdrawal; action: 'approve' | 'reject' } | null>(null);
  const q = useStaffQuery(fundingApi.staffWithdrawals, { status, page });
  const approve = useStaffMutation(fundingApi.approveWithdrawal);
  const reject = useStaffMutation(fundingApi.rejectWithdrawal);
  const done = () => setActing(null);
  const who = (r: Withdrawal) => r.user.email || r.user.mobile || r.user.uid;
  return (
    <section>
      <ScreenTitle>{t('admin.nav.withdrawals')}</ScreenTitle>
      <div className="mb-3">
        <StatusFilter
          label={t('admin.f.status')}
          value={status}
          options={['0', '1', '2'].map((s) => [s, t(adminKey(`admin.withdraw_status.${s}`))])}
          onChange={(v) => (setStatus(v), setPage(1))}
        />
      </div>
      <DataTable
        {...tableState(q)}
        label={t('admin.nav.withdrawals')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.id}
        columns={[
          { key: 'user', label: t('admin.f.user'), render: who },
          { key: 'amount', label: t('admin.f.amount'), render: (r) => `${formatMoney(r.number)} USD` },
          { key: 'fee', label: t('admin.f.fee'), render: (r) => formatMoney(r.fee) },
          { key: 'real', label: t('admin.f.received'), render: (r) => `${formatMoney(r.real_number)} ${r.draw_currency.code}` },
          {
            key: 'to',
            label: t('admin.f.address'),
            render: (r) => (
              <span className="break-all">
                {r.type === 1
                  ? `${r.address} (${r.draw_currency.protocol})`
                  : `${r.bank_name} · ${r.payee_name} · ${r.payee_account} · ${r.bank_swift}`}
              </span>
            ),
          },
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
          {
            key: 'status',
            label: t('admin.f.status'),
            render: (r) =>
              t(adminKey(`admin.withdraw_status.${r.status}`)) + (r.tx_ref ? ` · ${r.tx_ref}` : '') + (r.notes ? ` · ${r.notes}` : ''),
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
                </div>
              ),
          },
        ]}
      />
      {acting && (
        <PromptDialog
          title={t(adminKey(`admin.${acting.action}`))}
          label={acting.action === 'approve' ? t('admin.f.tx_ref') : t('admin.f.remark')}
          danger={acting.action === 'reject'}
          busy={approve.isPending || reject.isPending}
          onCancel={done}
          onConfirm={(value) =>
            acting.action === 'approve'
              ? approve.mutate({ id: acting.row.id, tx_ref: value }, { onSuccess: done })
              : reject.mutate({ id: acting.row.id, remark: value }, { onSuccess: done })
          }
        >
          <p>
            {who(acting.row)} · {formatMoney(acting.row.number)} USD
          </p>
        </PromptDialog>
      )}
    </section>
  );
}
