import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyButton } from '../../../components/ui/copy-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { QrCode } from '../../../components/ui/qr-code';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { Segmented } from '../../../components/ui/segmented';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatDateTime, formatMoney, isolateLtr } from '../../../lib/format';
import {
  type PartnerSummary,
  useApplyPartner,
  usePartnerClients,
  usePartnerCommissions,
  usePartnerPayouts,
  usePartnerSummary,
  useRequestPayout,
} from '../api/partner';

type Tab = 'clients' | 'commissions' | 'days' | 'payouts';

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex flex-col gap-1 rounded-lg bg-surface-2 p-3">
      <span className="text-xs text-muted">{label}</span>
      <span className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/** Not a partner yet (or refused): what the programme is, and the application. */
function ApplySection({ status }: { status: PartnerSummary['status'] }) {
  const { t } = useTranslation();
  const applying = useApplyPartner();
  return (
    <section className="flex flex-col gap-3 rounded-xl bg-surface p-4">
      <h2 className="font-medium">{t('partners.programme')}</h2>
      <p className="text-sm text-muted">{t('partners.programme_text')}</p>
      {status === 'applied' ? (
        <p className="text-sm" data-testid="partner-status" role="status">
          {t('partners.status_applied')}
        </p>
      ) : (
        <>
          {status === 'refused' && (
            <p className="text-sm text-muted" data-testid="partner-status">
              {t('partners.status_refused')}
            </p>
          )}
          <Button onClick={() => applying.mutate()} disabled={applying.isPending}>
            {t('partners.apply')}
          </Button>
        </>
      )}
    </section>
  );
}

function PayoutForm({ payable }: { payable: string }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  const [confirming, setConfirming] = useState(false);
  const request = useRequestPayout();
  const valid = /^\d+(\.\d{1,2})?$/.test(amount) && Number(amount) > 0 && Number(amount) <= Number(payable);
  return (
    <section className="flex flex-col gap-3 rounded-xl bg-surface p-4">
      <h2 className="font-medium">{t('partners.payout_title')}</h2>
      <p className="text-sm text-muted">{t('partners.payout_text')}</p>
      <Field
        label={t('partners.payout_amount')}
        inputMode="decimal"
        value={amount}
        onChange={(e) => setAmount(e.target.value.trim())}
        end={<span className="text-sm text-muted">USD</span>}
        hint={t('partners.payout_max', { amount: formatMoney(payable) })}
      />
      <Button disabled={!valid || request.isPending} onClick={() => setConfirming(true)}>
        {t('partners.payout_request')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('partners.payout_confirm_title')}
        busy={request.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          request.mutate(amount, {
            onSettled: () => setConfirming(false),
            onSuccess: () => setAmount(''),
          })
        }
        confirmLabel={t('partners.payout_request')}
      >
        {t('partners.payout_confirm_text', { amount: formatMoney(amount) })}
      </ConfirmDialog>
    </section>
  );
}

/** The scheduled payouts that apply to the partner: how often, the minimum, approved or automatic, and the next one. */
function ScheduleNote({ schedule }: { schedule: PartnerSummary['payout_schedule'] }) {
  const { t } = useTranslation();
  return (
    <section className="flex flex-col gap-2 rounded-xl bg-surface p-4" data-testid="partner-schedule">
      <h2 className="font-medium">{t('partners.schedule_title')}</h2>
      {schedule.schedule === 'off' || !schedule.next_at ? (
        <p className="text-sm text-muted">{t('partners.schedule_off')}</p>
      ) : (
        <>
          <p className="text-sm">{t(`partners.schedule_${schedule.schedule}`)}</p>
          <p className="text-sm text-muted">
            {t('partners.schedule_text', { minimum: formatMoney(schedule.minimum), date: formatDateTime(schedule.next_at) })}{' '}
            {t(schedule.auto_approve ? 'partners.schedule_auto' : 'partners.schedule_review')}
          </p>
        </>
      )}
    </section>
  );
}

function Lists() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('clients');
  const clients = usePartnerClients(tab === 'clients');
  const commissions = usePartnerCommissions(tab === 'commissions');
  const payouts = usePartnerPayouts(tab === 'payouts');
  const summary = usePartnerSummary();
  const list = tab === 'clients' ? clients : tab === 'commissions' ? commissions : tab === 'payouts' ? payouts : null;
  const more = list ? (
    <LoadMore
      hasMore={Boolean(list.hasNextPage)}
      loading={list.isFetchingNextPage}
      onMore={() => void list.fetchNextPage()}
      label={t('partners.load_more')}
    />
  ) : null;
  return (
    <section className="flex flex-col gap-3">
      <Segmented
        label={t('partners.lists')}
        value={tab}
        onChange={setTab}
        options={[
          { value: 'clients', label: t('partners.tab_clients') },
          { value: 'commissions', label: t('partners.tab_commissions') },
          { value: 'days', label: t('partners.tab_days') },
          { value: 'payouts', label: t('partners.tab_payouts') },
        ]}
      />
      {tab === 'days' ? (
        summary.data?.by_day.length ? (
          <ul className="divide-y divide-border rounded-xl bg-surface" data-testid="partner-days">
            {summary.data.by_day.map((d) => (
              <li key={d.day} className="flex items-center gap-3 px-4 py-3 text-sm">
                <span className="flex-1 tabular-nums">{isolateLtr(d.day)}</span>
                <span className="tabular-nums">{formatMoney(d.amount)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState />
        )
      ) : list?.isPending ? (
        <SkeletonRows rows={3} />
      ) : tab === 'clients' ? (
        (clients.data?.pages.flatMap((p) => p.data) ?? []).length === 0 ? (
          <EmptyState />
        ) : (
          <>
            <ul className="divide-y divide-border rounded-xl bg-surface" data-testid="partner-clients">
              {clients
                .data!.pages.flatMap((p) => p.data)
                .map((c) => (
                  <li key={c.uid} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm">
                    <span className="min-w-0 flex-1 break-all">
                      {isolateLtr(c.email)}
                      {c.sub_partner && (
                        <span className="ms-2 rounded bg-surface-2 px-1.5 py-0.5 text-xs text-accent">{t('partners.sub_partner')}</span>
                      )}
                    </span>
                    <span className="text-xs text-muted">{t('partners.lots', { lots: c.volume_lots })}</span>
                    <span className="tabular-nums">{formatMoney(c.commission)}</span>
                  </li>
                ))}
            </ul>
            {more}
          </>
        )
      ) : tab === 'commissions' ? (
        (commissions.data?.pages.flatMap((p) => p.data) ?? []).length === 0 ? (
          <EmptyState />
        ) : (
          <>
            <ul className="divide-y divide-border rounded-xl bg-surface" data-testid="partner-commissions">
              {commissions
                .data!.pages.flatMap((p) => p.data)
                .map((c) => (
                  <li key={c.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm">
                    <span className="min-w-0 flex-1 break-all">{isolateLtr(c.client)}</span>
                    <span className="text-xs text-muted">
                      {t(`partners.kind_${c.kind}`, { defaultValue: c.kind })} · {t('partners.tier', { tier: c.tier })}
                    </span>
                    <span className="tabular-nums">{formatMoney(c.amount)}</span>
                    <span className="w-full text-xs text-muted">{formatDateTime(c.created_at)}</span>
                  </li>
                ))}
            </ul>
            {more}
          </>
        )
      ) : (payouts.data?.pages.flatMap((p) => p.data) ?? []).length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <ul className="divide-y divide-border rounded-xl bg-surface" data-testid="partner-payouts">
            {payouts
              .data!.pages.flatMap((p) => p.data)
              .map((p) => (
                <li key={p.id} className="flex items-center gap-3 px-4 py-3 text-sm">
                  <span className="flex-1 text-xs text-muted">
                    {formatDateTime(p.created_at)}
                    {p.period && (
                      <span className="ms-2 rounded bg-surface-2 px-1.5 py-0.5 text-accent" data-testid="payout-scheduled">
                        {t('partners.scheduled')}
                      </span>
                    )}
                  </span>
                  <span>{t(`partners.payout_${p.status}`)}</span>
                  <span className="tabular-nums">{formatMoney(p.amount)}</span>
                </li>
              ))}
          </ul>
          {more}
        </>
      )}
    </section>
  );
}

function PartnerContent() {
  const { t } = useTranslation();
  const summary = usePartnerSummary();
  if (summary.isPending) return <SkeletonRows rows={4} />;
  if (!summary.data) return <EmptyState />;
  const s = summary.data;
  if (s.status !== 'approved') {
    return (
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-4">
        <ApplySection status={s.status} />
      </div>
    );
  }
  const link = `${window.location.origin}/register?invite_code=${encodeURIComponent(s.code)}`;
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-4 p-4 lg:grid lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)] lg:items-start">
      <div className="flex flex-col gap-4">
        <section className="flex flex-col gap-4 rounded-xl bg-surface p-4">
          <QrCode value={link} label={t('partners.qr')} />
          <div className="flex items-center gap-2">
            <span className="flex min-w-0 flex-1 flex-col">
              <span className="text-xs text-muted">{t('partners.code')}</span>
              <span className="font-mono text-lg" data-testid="partner-code">
                {s.code}
              </span>
            </span>
            <CopyButton text={s.code} label={t('partners.copy_code')} />
          </div>
          <div className="flex items-center gap-2">
            <span className="flex min-w-0 flex-1 flex-col">
              <span className="text-xs text-muted">{t('partners.link')}</span>
              <span className="break-all text-sm" dir="ltr">
                {link}
              </span>
            </span>
            <CopyButton text={link} label={t('partners.copy_link')} />
          </div>
        </section>
        <PayoutForm payable={s.commission_payable} />
        <ScheduleNote schedule={s.payout_schedule} />
      </div>
      <div className="flex flex-col gap-4">
        <section aria-label={t('partners.figures')} className="grid grid-cols-2 gap-2 rounded-xl bg-surface p-3 sm:grid-cols-3">
          <Stat label={t('partners.clients')} value={String(s.clients)} testId="partner-clients-count" />
          <Stat label={t('partners.sub_partners')} value={String(s.sub_partners)} />
          <Stat label={t('partners.volume')} value={s.volume_lots} />
          <Stat label={t('partners.total')} value={formatMoney(s.commission_total)} testId="partner-total" />
          <Stat label={t('partners.payable')} value={formatMoney(s.commission_payable)} testId="partner-payable" />
          <Stat label={t('partners.paid_out')} value={formatMoney(s.paid_out)} />
        </section>
        <Lists />
      </div>
    </div>
  );
}

/** /mine/partner: the introducing broker's area (apply; code, link and QR; clients, commissions, payouts). */
export function PartnerPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.partner')} />
      <RealAccountOnly>
        <PartnerContent />
      </RealAccountOnly>
    </>
  );
}
