import { useState } from 'react';
import * as api from '@tp/contract/endpoints/admin';
import type { ChangePreview, PendingChange } from '@tp/contract/schemas/admin';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { formatDateTime, formatMoney, formatNumber, isolateLtr } from '../../../lib/format';
import { useStaffSession } from '../../../lib/staff-session-store';
import { useStaffMutation, useStaffQuery } from '../api/admin-client';
import { AuditChanges } from './audit-screen';
import { DataTable, tableState } from './data-table';
import { adminKey } from './dynamic-key';
import { PromptDialog } from './prompt-dialog';
import { ScreenTitle } from './screen-header';

const LIMIT = 20;
/** '' (no quote yet) reads as a dash; amounts as money. */
const money = (v: string) => (v === '' ? '—' : formatMoney(v));

/**
 * Four-eyes changes to money rules: what each pending change sets (before → after), what it would do
 * at the current quotes, and approve or reject; a member cannot approve their own proposal.
 */
export function ChangesScreen() {
  const { t } = useTranslation();
  const me = useStaffSession((s) => s.staff);
  const [page, setPage] = useState(1);
  const [acting, setActing] = useState<{ change: PendingChange; action: 'approve' | 'reject' } | null>(null);
  const q = useStaffQuery(api.changesList, { page, limit: LIMIT });
  const approve = useStaffMutation(api.changesApprove, 'admin.changes.approved');
  const reject = useStaffMutation(api.changesReject, 'admin.changes.rejected');
  const done = () => setActing(null);
  return (
    <section>
      <ScreenTitle>{t('admin.nav.changes')}</ScreenTitle>
      <p className="mb-3 max-w-3xl text-sm text-muted">{t('admin.changes.intro')}</p>
      <DataTable
        {...tableState(q)}
        label={t('admin.nav.changes')}
        limit={LIMIT}
        page={page}
        onPage={setPage}
        rowKey={(c) => c.id}
        columns={[
          {
            key: 'change',
            label: t('admin.changes.change'),
            render: (c) => (
              <div className="flex flex-col gap-0.5">
                <span className="font-medium">
                  {t(adminKey(`admin.changes.kind.${c.kind}`))} · <bdi>{c.target_label}</bdi>
                </span>
                <span className="text-xs text-muted">
                  #{c.id} · <bdi>{formatDateTime(c.created_at)}</bdi>
                </span>
                {/* The address kept left-to-right inside a right-to-left sentence. */}
                <span className="text-xs text-muted">{t('admin.changes.proposed_by', { who: isolateLtr(c.proposer_email) })}</span>
              </div>
            ),
          },
          {
            key: 'diff',
            label: t('admin.audit.changes'),
            className: 'min-w-64 max-w-md',
            render: (c) => <AuditChanges before={c.before} after={c.after} />,
          },
          {
            key: 'preview',
            label: t('admin.changes.preview'),
            className: 'min-w-64',
            render: (c) => (c.preview ? <Preview preview={c.preview} /> : <span className="text-muted">—</span>),
          },
          {
            key: 'status',
            label: t('admin.f.status'),
            render: (c) => (
              <div className="flex flex-col gap-0.5">
                <span data-status={c.status}>{t(adminKey(`admin.changes.status.${c.status}`))}</span>
                {c.decider_email && (
                  <span className="text-xs text-muted">
                    {t('admin.changes.decided_by', { who: isolateLtr(c.decider_email) })} · <bdi>{formatDateTime(c.decided_at)}</bdi>
                  </span>
                )}
                {c.reason && <span className="text-xs">{c.reason}</span>}
              </div>
            ),
          },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (c) =>
              c.status === 'pending' && (
                <div className="flex flex-col items-start gap-2">
                  {c.proposed_by === me?.id ? (
                    <span className="text-xs text-muted">{t('admin.changes.own')}</span>
                  ) : (
                    <Button
                      onClick={() => setActing({ change: c, action: 'approve' })}
                      aria-label={t('admin.changes.approve_of', { id: c.id })}
                    >
                      {t('admin.approve')}
                    </Button>
                  )}
                  <Button
                    variant="danger"
                    onClick={() => setActing({ change: c, action: 'reject' })}
                    aria-label={t('admin.changes.reject_of', { id: c.id })}
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
          title={t(acting.action === 'approve' ? 'admin.changes.approve_title' : 'admin.changes.reject_title')}
          label={acting.action === 'reject' ? t('admin.changes.reason') : undefined}
          optional
          danger={acting.action === 'reject'}
          busy={approve.isPending || reject.isPending}
          onCancel={done}
          onConfirm={(reason) =>
            acting.action === 'approve'
              ? approve.mutate({ id: acting.change.id }, { onSettled: done })
              : reject.mutate({ id: acting.change.id, reason }, { onSuccess: done })
          }
        >
          <p>
            {t(adminKey(`admin.changes.kind.${acting.change.kind}`))} · <bdi>{acting.change.target_label}</bdi>
          </p>
          {acting.action === 'approve' && <p className="text-sm text-muted">{t('admin.changes.approve_hint')}</p>}
        </PromptDialog>
      )}
    </section>
  );
}

/** A 1-lot trade before and after on each symbol the change touches, and the open accounts it moves. */
function Preview({ preview }: { preview: ChangePreview }) {
  const { t } = useTranslation();
  const points = (v: string) => isolateLtr(formatNumber(v, 2, { signed: true }));
  return (
    <div className="flex flex-col gap-2 text-xs">
      {preview.symbols.map((s) => (
        <table key={s.id} className="w-full">
          <caption className="text-start font-medium">{t('admin.changes.one_lot', { symbol: s.code, mid: s.mid || '—' })}</caption>
          <thead>
            <tr className="text-muted">
              <th scope="col" className="pe-2 text-start font-normal" />
              <th scope="col" className="pe-2 text-end font-normal">
                {t('admin.changes.now')}
              </th>
              <th scope="col" className="text-end font-normal">
                {t('admin.changes.proposed')}
              </th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row" className="pe-2 text-start font-normal text-muted">
                {t('admin.changes.leverage')}
              </th>
              <td className="pe-2 text-end tabular-nums">{s.leverage_before}</td>
              <td className="text-end tabular-nums">{s.leverage_after}</td>
            </tr>
            <tr>
              <th scope="row" className="pe-2 text-start font-normal text-muted">
                {t('admin.changes.fee')}
              </th>
              <td className="pe-2 text-end tabular-nums">{money(s.fee_before)}</td>
              <td className="text-end tabular-nums">{money(s.fee_after)}</td>
            </tr>
            <tr>
              <th scope="row" className="pe-2 text-start font-normal text-muted">
                {t('admin.changes.margin')}
              </th>
              <td className="pe-2 text-end tabular-nums">{money(s.margin_before)}</td>
              <td className="text-end tabular-nums">{money(s.margin_after)}</td>
            </tr>
            {s.spread_cost_before !== undefined && s.spread_cost_after !== undefined && (
              <tr>
                <th scope="row" className="pe-2 text-start font-normal text-muted">
                  {t('admin.changes.spread_cost')}
                </th>
                <td className="pe-2 text-end tabular-nums">{money(s.spread_cost_before)}</td>
                <td className="text-end tabular-nums">{money(s.spread_cost_after)}</td>
              </tr>
            )}
          </tbody>
        </table>
      ))}
      {preview.margin_accounts !== null && (
        <p>
          {t('admin.changes.margin_accounts', { count: preview.margin_accounts })}
          {preview.margin_accounts > 0 &&
            ` · ${t('admin.changes.level_change', { min: points(preview.level_change_min), max: points(preview.level_change_max) })}`}
        </p>
      )}
      {preview.below_stop_out !== null && <p>{t('admin.changes.below_stop_out', { count: preview.below_stop_out })}</p>}
      {preview.below_margin_call !== null && <p>{t('admin.changes.below_margin_call', { count: preview.below_margin_call })}</p>}
    </div>
  );
}
