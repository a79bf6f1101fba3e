import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AdminPartner,
  PAYOUT_SCHEDULES,
  type PartnerPayout,
  type PartnerPlan,
  type PayoutScheduleView,
} from '@tp/contract/schemas/partners';
import * as partnersApi from '@tp/contract/endpoints/partners';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Field } from '../../../components/ui/field';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useStaffMutation, useStaffQuery } from '../api/admin-client';
import { DataTable, StatusFilter, tableState } from './data-table';
import { adminKey } from './dynamic-key';
import { ScreenTabs, ScreenTitle } from './screen-header';

const TABS = ['partner_list', 'partner_plans', 'partner_tree', 'partner_commissions', 'partner_payouts', 'partner_schedules'] as const;
type Tab = (typeof TABS)[number];

const who = (p: { email: string | null; uid?: string; user_id: number }) => p.email || p.uid || String(p.user_id);

function PlanSelect({
  plans,
  value,
  onChange,
  label,
}: {
  plans: PartnerPlan[];
  value: string;
  onChange: (v: string) => void;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <select
      aria-label={label}
      className="rounded-lg border border-border bg-surface px-2 py-1.5 text-sm"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">{t('admin.partners.no_plan')}</option>
      {plans.map((p) => (
        <option key={p.id} value={String(p.id)}>
          {p.name}
        </option>
      ))}
    </select>
  );
}

function PartnerRowActions({ row, plans }: { row: AdminPartner; plans: PartnerPlan[] }) {
  const { t } = useTranslation();
  const [plan, setPlan] = useState(row.plan_id ? String(row.plan_id) : '');
  const approve = useStaffMutation(partnersApi.adminApprove);
  const setPlanCall = useStaffMutation(partnersApi.adminSetPlan);
  const name = who(row);
  if (row.status === 'applied')
    return (
      <div className="flex flex-wrap items-center gap-2">
        <PlanSelect plans={plans} value={plan} onChange={setPlan} label={t('admin.partners.plan_for', { who: name })} />
        <Button
          disabled={approve.isPending}
          onClick={() => approve.mutate({ user_id: row.user_id, approve: 1, ...(plan ? { plan_id: Number(plan) } : {}) })}
          aria-label={t('admin.approve_for', { who: name })}
        >
          {t('admin.approve')}
        </Button>
        <Button
          variant="danger"
          disabled={approve.isPending}
          onClick={() => approve.mutate({ user_id: row.user_id, approve: 0 })}
          aria-label={t('admin.reject_for', { who: name })}
        >
          {t('admin.reject')}
        </Button>
      </div>
    );
  if (row.status !== 'approved') return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <PlanSelect plans={plans} value={plan} onChange={setPlan} label={t('admin.partners.plan_for', { who: name })} />
      <Button
        variant="secondary"
        disabled={!plan || Number(plan) === row.plan_id || setPlanCall.isPending}
        onClick={() => setPlanCall.mutate({ user_id: row.user_id, plan_id: Number(plan) })}
      >
        {t('admin.partners.set_plan')}
      </Button>
    </div>
  );
}

function PartnerList({ plans }: { plans: PartnerPlan[] }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState('0');
  const [page, setPage] = useState(1);
  const q = useStaffQuery(partnersApi.adminList, { status, page });
  const planName = (id: number | null) => plans.find((p) => p.id === id)?.name ?? t('admin.partners.no_plan');
  return (
    <>
      <div className="mb-3">
        <StatusFilter
          label={t('admin.f.status')}
          value={status}
          options={(['0', '1', '2'] as const).map((s) => [
            s,
            t(adminKey(`admin.partners.state.${['applied', 'approved', 'refused'][Number(s)]}`)),
          ])}
          onChange={(v) => (setStatus(v), setPage(1))}
        />
      </div>
      <DataTable
        {...tableState(q)}
        label={t('admin.tab.partner_list')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.user_id}
        columns={[
          { key: 'user', label: t('admin.f.user'), render: (r) => <span className="break-all">{who(r)}</span> },
          { key: 'status', label: t('admin.f.status'), render: (r) => t(adminKey(`admin.partners.state.${r.status}`)) },
          { key: 'plan', label: t('admin.partners.plan'), render: (r) => planName(r.plan_id) },
          { key: 'parent', label: t('admin.partners.parent'), render: (r) => (r.parent_user_id ? `#${r.parent_user_id}` : '—') },
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (r) => <PartnerRowActions key={`${r.user_id}:${r.plan_id}`} row={r} plans={plans} />,
          },
        ]}
      />
    </>
  );
}

const parseRates = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split(/[\n,]/)
      .map((line) => line.split('=').map((s) => s.trim()))
      .filter((pair) => pair.length === 2 && pair[0] && pair[1]) as [string, string][],
  );

function PlanForm({ plan, onDone }: { plan: PartnerPlan | null; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useStaffMutation(partnersApi.adminSavePlan);
  const [name, setName] = useState(plan?.name ?? '');
  const [perLot, setPerLot] = useState(
    Object.entries(plan?.per_lot ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
  const [feeShare, setFeeShare] = useState(plan?.fee_share ?? '0');
  const [cpa, setCpa] = useState(plan?.cpa_amount ?? '0');
  const [threshold, setThreshold] = useState(plan?.cpa_threshold ?? '0');
  const [tiers, setTiers] = useState((plan?.tier_shares ?? ['100']).join(', '));
  return (
    <form
      className="flex max-w-xl flex-col gap-3 rounded-xl bg-surface p-4"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(
          {
            ...(plan ? { id: plan.id } : {}),
            name,
            per_lot: parseRates(perLot),
            fee_share: feeShare,
            cpa_amount: cpa,
            cpa_threshold: threshold,
            tier_shares: tiers
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          },
          { onSuccess: onDone },
        );
      }}
    >
      <Field label={t('admin.f.name')} value={name} onChange={(e) => setName(e.target.value)} required />
      <label className="flex flex-col gap-1.5 text-sm">
        <span className="text-muted">{t('admin.partners.per_lot')}</span>
        <textarea
          className="min-h-20 rounded-lg border border-border bg-surface px-3 py-2 font-mono"
          dir="ltr"
          value={perLot}
          onChange={(e) => setPerLot(e.target.value)}
        />
      </label>
      <Field label={t('admin.partners.fee_share')} inputMode="decimal" value={feeShare} onChange={(e) => setFeeShare(e.target.value)} />
      <Field label={t('admin.partners.cpa_amount')} inputMode="decimal" value={cpa} onChange={(e) => setCpa(e.target.value)} />
      <Field
        label={t('admin.partners.cpa_threshold')}
        inputMode="decimal"
        value={threshold}
        onChange={(e) => setThreshold(e.target.value)}
      />
      <Field label={t('admin.partners.tier_shares')} value={tiers} onChange={(e) => setTiers(e.target.value)} dir="ltr" />
      <div className="flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          {t('admin.save')}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}

function Plans({ plans, loading }: { plans: PartnerPlan[]; loading: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<PartnerPlan | 'new' | null>(null);
  if (editing)
    return (
      <PlanForm key={editing === 'new' ? 'new' : editing.id} plan={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
    );
  return (
    <>
      <div className="mb-3">
        <Button onClick={() => setEditing('new')}>{t('admin.partners.new_plan')}</Button>
      </div>
      <DataTable
        label={t('admin.tab.partner_plans')}
        rows={plans}
        loading={loading}
        error={false}
        onRetry={() => undefined}
        rowKey={(p) => p.id}
        columns={[
          { key: 'name', label: t('admin.f.name'), render: (p) => p.name },
          {
            key: 'lot',
            label: t('admin.partners.per_lot_short'),
            render: (p) => (
              <span dir="ltr">
                {Object.entries(p.per_lot)
                  .map(([k, v]) => `${k}: ${v}`)
                  .join(', ') || '—'}
              </span>
            ),
          },
          { key: 'fee', label: t('admin.partners.fee_share'), render: (p) => p.fee_share },
          { key: 'cpa', label: t('admin.partners.cpa_amount'), render: (p) => `${p.cpa_amount} (≥ ${p.cpa_threshold})` },
          { key: 'tiers', label: t('admin.partners.tier_shares'), render: (p) => <span dir="ltr">{p.tier_shares.join(' / ')}</span> },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (p) => (
              <Button variant="secondary" onClick={() => setEditing(p)}>
                {t('admin.edit')}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}

function Tree({ plans }: { plans: PartnerPlan[] }) {
  const { t } = useTranslation();
  const q = useStaffQuery(partnersApi.adminTree, undefined);
  const rows = q.data ?? [];
  const children = new Map<number | null, typeof rows>();
  const known = new Set(rows.map((r) => r.user_id));
  for (const r of rows) {
    const parent = r.parent_user_id !== null && known.has(r.parent_user_id) ? r.parent_user_id : null;
    children.set(parent, [...(children.get(parent) ?? []), r]);
  }
  const render = (parent: number | null, depth: number): ReactNode =>
    (children.get(parent) ?? []).map((r) => (
      <li key={r.user_id}>
        <div className="flex gap-3 py-1.5 text-sm" style={{ paddingInlineStart: `${depth * 1.5}rem` }}>
          <span className="break-all">{r.email ?? `#${r.user_id}`}</span>
          <span className="text-muted">{plans.find((p) => p.id === r.plan_id)?.name ?? t('admin.partners.no_plan')}</span>
        </div>
        {depth < 20 && children.has(r.user_id) && <ul>{render(r.user_id, depth + 1)}</ul>}
      </li>
    ));
  return (
    <ul aria-label={t('admin.tab.partner_tree')} className="rounded-xl bg-surface p-3">
      {render(null, 0)}
    </ul>
  );
}

/** Every partner's commissions, newest first, or only the clawbacks (taken back when staff reversed a referred client's trade). */
function Commissions() {
  const { t } = useTranslation();
  const [only, setOnly] = useState('0');
  const [page, setPage] = useState(1);
  const q = useStaffQuery(partnersApi.adminCommissions, { clawbacks: only, page });
  return (
    <>
      <div className="mb-3">
        <StatusFilter
          label={t('admin.partners.kind_filter')}
          value={only}
          options={[
            ['0', t('admin.partners.all_commissions')],
            ['1', t('admin.partners.clawbacks_only')],
          ]}
          onChange={(v) => (setOnly(v), setPage(1))}
        />
      </div>
      <DataTable
        {...tableState(q)}
        label={t('admin.tab.partner_commissions')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.id}
        columns={[
          {
            key: 'partner',
            label: t('admin.partners.partner'),
            render: (r) => <span className="break-all">{r.partner_email ?? `#${r.partner_user_id}`}</span>,
          },
          { key: 'client', label: t('admin.partners.client'), render: (r) => <span dir="ltr">{r.client}</span> },
          {
            key: 'kind',
            label: t('admin.f.type'),
            render: (r) => `${t(adminKey(`admin.partners.kind.${r.kind}`), { defaultValue: r.kind })} · ${r.tier}`,
          },
          { key: 'source', label: t('admin.partners.source'), render: (r) => <span dir="ltr">{`${r.source_type} #${r.source_id}`}</span> },
          {
            key: 'amount',
            label: t('admin.f.amount'),
            render: (r) => formatMoney(r.amount, { signed: true }),
            className: 'tabular-nums',
          },
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
        ]}
      />
    </>
  );
}

function Payouts() {
  const { t } = useTranslation();
  const [status, setStatus] = useState('0');
  const [page, setPage] = useState(1);
  const q = useStaffQuery(partnersApi.adminPayouts, { status, page });
  const review = useStaffMutation(partnersApi.adminReviewPayout);
  const [confirming, setConfirming] = useState<PartnerPayout | null>(null);
  return (
    <>
      <div className="mb-3">
        <StatusFilter
          label={t('admin.f.status')}
          value={status}
          options={(['0', '1', '2'] as const).map((s) => [
            s,
            t(adminKey(`admin.partners.payout.${['requested', 'paid', 'refused'][Number(s)]}`)),
          ])}
          onChange={(v) => (setStatus(v), setPage(1))}
        />
      </div>
      <DataTable
        {...tableState(q)}
        label={t('admin.tab.partner_payouts')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.id}
        columns={[
          { key: 'user', label: t('admin.f.user'), render: (r) => <span className="break-all">{r.email ?? `#${r.user_id}`}</span> },
          { key: 'amount', label: t('admin.f.amount'), render: (r) => `${formatMoney(r.amount)} USD` },
          { key: 'status', label: t('admin.f.status'), render: (r) => t(adminKey(`admin.partners.payout.${r.status}`)) },
          {
            key: 'period',
            label: t('admin.partners.period'),
            render: (r) => (r.period ? <span dir="ltr">{r.period}</span> : t('admin.partners.requested_by_partner')),
          },
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (r) =>
              r.status === 'requested' && (
                <div className="flex flex-wrap gap-2">
                  <Button onClick={() => setConfirming(r)} aria-label={t('admin.approve_for', { who: r.email ?? `#${r.user_id}` })}>
                    {t('admin.partners.pay')}
                  </Button>
                  <Button
                    variant="danger"
                    disabled={review.isPending}
                    onClick={() => review.mutate({ id: r.id, approve: 0 })}
                    aria-label={t('admin.reject_for', { who: r.email ?? `#${r.user_id}` })}
                  >
                    {t('admin.reject')}
                  </Button>
                </div>
              ),
          },
        ]}
      />
      <ConfirmDialog
        open={confirming !== null}
        title={t('admin.partners.pay')}
        confirmLabel={t('admin.partners.pay')}
        busy={review.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && review.mutate({ id: confirming.id, approve: 1 }, { onSettled: () => setConfirming(null) })}
      >
        {confirming &&
          t('admin.partners.pay_confirm', { amount: formatMoney(confirming.amount), who: confirming.email ?? `#${confirming.user_id}` })}
      </ConfirmDialog>
    </>
  );
}

const selectClass = 'rounded-lg border border-border bg-surface px-2 py-1.5 text-sm';

/** Scheduled payouts: the global schedule and the plans' own; finance set them. */
function Schedules({ plans }: { plans: PartnerPlan[] }) {
  const { t } = useTranslation();
  const q = useStaffQuery(partnersApi.adminSchedules, undefined);
  const save = useStaffMutation(partnersApi.adminSaveSchedule);
  const [planId, setPlanId] = useState('0');
  const current = q.data?.find((s) => String(s.plan_id) === planId);
  const [form, setForm] = useState<Omit<PayoutScheduleView, 'plan_id'> | null>(null);
  const values = form ?? {
    schedule: current?.schedule ?? 'off',
    minimum: current?.minimum ?? '0.00',
    auto_approve: current?.auto_approve ?? false,
  };
  const planName = (id: number) => (id === 0 ? t('admin.partners.global') : (plans.find((p) => p.id === id)?.name ?? `#${id}`));
  return (
    <div className="flex flex-col gap-4">
      <p className="max-w-2xl text-sm text-muted">{t('admin.partners.schedule_intro')}</p>
      <form
        className="flex max-w-xl flex-col gap-3 rounded-xl bg-surface p-4"
        data-testid="schedule-form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ plan_id: Number(planId), ...values }, { onSuccess: () => setForm(null) });
        }}
      >
        <label className="flex flex-col gap-1.5 text-sm">
          <span className="text-muted">{t('admin.partners.schedule_plan')}</span>
          <select className={selectClass} value={planId} onChange={(e) => (setPlanId(e.target.value), setForm(null))}>
            <option value="0">{t('admin.partners.global')}</option>
            {plans.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1.5 text-sm">
          <span className="text-muted">{t('admin.partners.schedule_label')}</span>
          <select
            className={selectClass}
            value={values.schedule}
            onChange={(e) => setForm({ ...values, schedule: e.target.value as PayoutScheduleView['schedule'] })}
          >
            {PAYOUT_SCHEDULES.map((s) => (
              <option key={s} value={s}>
                {t(adminKey(`admin.partners.schedule.${s}`))}
              </option>
            ))}
          </select>
        </label>
        <Field
          label={t('admin.partners.minimum')}
          inputMode="decimal"
          value={values.minimum}
          onChange={(e) => setForm({ ...values, minimum: e.target.value.trim() })}
        />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={values.auto_approve} onChange={(e) => setForm({ ...values, auto_approve: e.target.checked })} />
          {t('admin.partners.auto_approve')}
        </label>
        <div>
          <Button type="submit" disabled={save.isPending}>
            {t('admin.save')}
          </Button>
        </div>
      </form>
      <DataTable
        {...tableState(q)}
        label={t('admin.tab.partner_schedules')}
        rowKey={(s) => s.plan_id}
        columns={[
          { key: 'plan', label: t('admin.partners.schedule_plan'), render: (s) => planName(s.plan_id) },
          {
            key: 'schedule',
            label: t('admin.partners.schedule_label'),
            render: (s) => t(adminKey(`admin.partners.schedule.${s.schedule}`)),
          },
          { key: 'minimum', label: t('admin.partners.minimum'), render: (s) => formatMoney(s.minimum) },
          { key: 'auto', label: t('admin.partners.auto_approve'), render: (s) => t(s.auto_approve ? 'admin.yes' : 'admin.no') },
        ]}
      />
    </div>
  );
}

/** Introducing brokers: applications and partners (approve, plan), plans, the tree, payout requests. */
export function PartnersScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('partner_list');
  const plans = useStaffQuery(partnersApi.adminPlans, undefined);
  const list = plans.data ?? [];
  return (
    <section>
      <ScreenTitle>{t('admin.nav.partners')}</ScreenTitle>
      <ScreenTabs tabs={TABS} value={tab} onChange={setTab} label={t('admin.nav.partners')} />
      {tab === 'partner_list' && <PartnerList plans={list} />}
      {tab === 'partner_plans' && <Plans plans={list} loading={plans.isLoading} />}
      {tab === 'partner_tree' && <Tree plans={list} />}
      {tab === 'partner_commissions' && <Commissions />}
      {tab === 'partner_payouts' && <Payouts />}
      {tab === 'partner_schedules' && <Schedules plans={list} />}
    </section>
  );
}
