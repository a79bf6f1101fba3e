import { dec } from '@tp/contract/decimal';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminCopyProvider } from '@tp/contract/schemas/social';
import * as socialApi from '@tp/contract/endpoints/social';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Field } from '../../../components/ui/field';
import { formatDateTime, formatMoney, formatNumber } from '../../../lib/format';
import { hasRole, useStaffSession } from '../../../lib/staff-session-store';
import { useStaffMutation, useStaffQuery } from '../api/admin-client';
import { DataTable, tableState } from './data-table';
import { ScreenTitle } from './screen-header';

const who = (p: AdminCopyProvider) => p.email || p.uid || `#${p.provider_id}`;

/** Staff's minimum track record (closed trades) to become a provider; risk changes it, others read it. */
function MinTradesForm({ current, canChange }: { current: number; canChange: boolean }) {
  const { t } = useTranslation();
  const save = useStaffMutation(socialApi.adminCopySettings);
  const [value, setValue] = useState(String(current));
  const valid = /^\d{1,4}$/.test(value) && Number(value) <= 1000;
  return (
    <form
      aria-labelledby="copy-min-title"
      className="mb-4 flex flex-wrap items-end gap-3 rounded-xl bg-surface p-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) save.mutate({ min_trades: Number(value) });
      }}
    >
      <div className="flex min-w-56 flex-1 flex-col gap-1">
        <h2 id="copy-min-title" className="text-sm font-medium">
          {t('admin.copy_providers.min_trades')}
        </h2>
        <Field
          label={t('admin.copy_providers.min_trades_label')}
          hint={t('admin.copy_providers.min_trades_hint')}
          inputMode="numeric"
          dir="ltr"
          data-testid="copy-min-trades"
          disabled={!canChange}
          value={value}
          onChange={(e) => setValue(e.target.value.trim())}
        />
      </div>
      {canChange ? (
        <Button type="submit" disabled={!valid || save.isPending || Number(value) === current} data-testid="copy-min-trades-save">
          {t('admin.save')}
        </Button>
      ) : null}
    </form>
  );
}

/** Copy trading's providers: followers, assets copied, fees and earnings; risk suspends or resumes one. */
export function CopyProvidersScreen() {
  const { t } = useTranslation();
  const staff = useStaffSession((s) => s.staff);
  const canChange = hasRole(staff, ['risk']);
  const [page, setPage] = useState(1);
  const q = useStaffQuery(socialApi.adminCopyProviders, { page, limit: 10 });
  const suspend = useStaffMutation(socialApi.adminCopySuspend);
  const [asking, setAsking] = useState<AdminCopyProvider | null>(null);
  const money = (v: string) => <span dir="ltr">{formatMoney(v)}</span>;
  return (
    <section>
      <ScreenTitle>{t('admin.nav.copy_providers')}</ScreenTitle>
      {q.data ? <MinTradesForm key={q.data.min_trades} current={q.data.min_trades} canChange={canChange} /> : null}
      <DataTable
        {...tableState(q)}
        label={t('admin.nav.copy_providers')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.provider_id}
        columns={[
          { key: 'user', label: t('admin.f.user'), render: (r) => <span className="break-all">{who(r)}</span> },
          {
            key: 'status',
            label: t('admin.f.status'),
            render: (r) => (
              <span data-testid="copy-provider-status" data-status={r.suspended ? 'suspended' : r.enabled ? 'enabled' : 'disabled'}>
                {t(
                  r.suspended
                    ? 'admin.copy_providers.suspended'
                    : r.enabled
                      ? 'admin.copy_providers.enabled'
                      : 'admin.copy_providers.disabled',
                )}
              </span>
            ),
          },
          {
            key: 'followers',
            label: t('admin.copy_providers.followers'),
            render: (r) => <span className="tabular-nums">{formatNumber(r.followers, 0)}</span>,
          },
          { key: 'assets', label: t('admin.copy_providers.assets_copied'), render: (r) => money(r.assets_copied) },
          {
            key: 'fee',
            label: t('admin.copy_providers.performance_fee'),
            render: (r) => <span dir="ltr">{formatNumber(r.fee_pct, 2)}%</span>,
          },
          {
            key: 'sub_fee',
            label: t('admin.copy_providers.sub_fee'),
            render: (r) => (dec(r.sub_fee).gt(0) ? money(r.sub_fee) : '—'),
          },
          { key: 'fees', label: t('admin.copy_providers.fees_earned'), render: (r) => money(r.fees_earned) },
          { key: 'sub_fees', label: t('admin.copy_providers.sub_fees_earned'), render: (r) => money(r.sub_fees_earned) },
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
          ...(canChange
            ? [
                {
                  key: 'act',
                  label: t('admin.f.actions'),
                  render: (r: AdminCopyProvider) => (
                    <Button
                      variant={r.suspended ? 'secondary' : 'danger'}
                      disabled={suspend.isPending}
                      aria-label={t(r.suspended ? 'admin.copy_providers.resume_for' : 'admin.copy_providers.suspend_for', { who: who(r) })}
                      onClick={() => setAsking(r)}
                    >
                      {t(r.suspended ? 'admin.copy_providers.resume' : 'admin.copy_providers.suspend')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <ConfirmDialog
        open={asking !== null}
        title={t(asking?.suspended ? 'admin.copy_providers.resume' : 'admin.copy_providers.suspend')}
        confirmLabel={t(asking?.suspended ? 'admin.copy_providers.resume' : 'admin.copy_providers.suspend')}
        danger={!asking?.suspended}
        busy={suspend.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() =>
          asking &&
          suspend.mutate({ provider_id: asking.provider_id, suspended: asking.suspended ? 0 : 1 }, { onSettled: () => setAsking(null) })
        }
      >
        {asking
          ? t(asking.suspended ? 'admin.copy_providers.resume_confirm' : 'admin.copy_providers.suspend_confirm', {
              who: who(asking),
              n: asking.followers,
            })
          : null}
      </ConfirmDialog>
    </section>
  );
}
