import { dec } from '@tp/contract/decimal';
import { useState } from 'react';
import type { ProviderSummary, Subscription } from '@tp/contract/schemas/social';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { ErrorState } from '../../../components/ui/error-state';
import { PageHeader } from '../../../components/ui/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatDateTime, formatMoney, formatNumber } from '../../../lib/format';
import { useMyCopies, usePauseCopy, useProviderEnable, useUnsubscribe } from '../api/copy-trading';
import { Income } from './trader-figures';

const STOP_REASONS = {
  unfollowed: 'rank.stop_reason_unfollowed',
  copy_stop_loss: 'rank.stop_reason_copy_stop_loss',
  provider_disabled: 'rank.stop_reason_provider_disabled',
  fee_unpaid: 'rank.stop_reason_fee_unpaid',
} as const;
const charges = (fee: string) => dec(fee).gt(0);
const STATUS_LABELS = { active: 'rank.status_active', paused: 'rank.status_paused', stopped: 'rank.status_stopped' } as const;

const STATUS_TONE = { active: 'bg-up/15 text-up', paused: 'bg-accent/15 text-accent', stopped: 'bg-surface-2 text-muted' } as const;

function CopyCard({ sub }: { sub: Subscription }) {
  const { t } = useTranslation();
  const pause = usePauseCopy();
  const unsubscribe = useUnsubscribe();
  const [asking, setAsking] = useState(false);
  const [resuming, setResuming] = useState(false);
  const unpaid = sub.status === 'paused' && sub.stop_reason === 'fee_unpaid';
  const suspended = sub.status === 'paused' && sub.stop_reason === 'provider_suspended';
  const togglePause = () =>
    pause.mutate({ provider_id: sub.provider_id, paused: sub.status === 'active' ? 1 : 0 }, { onSettled: () => setResuming(false) });
  const profit = (Number(sub.copy_equity) - Number(sub.start_equity)).toFixed(6);
  const open = sub.copies.filter((c) => c.state === 'open').length;
  const skipped = sub.copies.filter((c) => c.state === 'skipped').length;
  const unfollow = (close: boolean) =>
    unsubscribe.mutate({ provider_id: sub.provider_id, close_positions: close ? 1 : 0 }, { onSettled: () => setAsking(false) });
  return (
    <li className="flex flex-col gap-3 rounded-xl bg-surface p-4" aria-label={sub.provider} data-testid="copy-card">
      <div className="flex items-center gap-3">
        <Link to={`/rank/trader?id=${sub.provider_id}`} className="min-w-0 flex-1 truncate font-medium">
          {sub.provider}
        </Link>
        <span
          data-testid="copy-status"
          data-status={sub.status}
          className={`rounded-full px-2.5 py-0.5 text-xs ${STATUS_TONE[sub.status]}`}
        >
          {t(STATUS_LABELS[sub.status])}
        </span>
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-[11px] text-muted">{t('rank.allocation')}</dt>
          <dd className="tabular-nums">
            <span dir="ltr">{sub.mode === 'amount' ? formatMoney(sub.value) : `× ${sub.value}`}</span>
          </dd>
        </div>
        <div>
          <dt className="text-[11px] text-muted">{t('rank.copy_equity')}</dt>
          <dd className="tabular-nums">
            <span dir="ltr">{formatMoney(sub.copy_equity)}</span>
          </dd>
        </div>
        <div>
          <dt className="text-[11px] text-muted">{t('rank.copy_profit')}</dt>
          <dd>
            <Income value={profit} />
          </dd>
        </div>
        <div>
          <dt className="text-[11px] text-muted">{t('rank.open_copies')}</dt>
          <dd className="tabular-nums" data-testid="copy-open-count">
            {formatNumber(open, 0)}
            {skipped ? <span className="ms-1 text-xs text-muted">{t('rank.skipped_count', { n: skipped })}</span> : null}
          </dd>
        </div>
      </dl>
      {charges(sub.sub_fee) ? (
        <p data-testid="copy-sub-fee" className="text-xs text-muted">
          {t('rank.sub_fee')}: {t('rank.sub_fee_value', { value: formatNumber(sub.sub_fee, 2) })}
          {sub.paid_until && sub.status !== 'stopped' && !unpaid ? (
            <> · {t('rank.paid_until', { date: formatDateTime(sub.paid_until) })}</>
          ) : null}
        </p>
      ) : null}
      {unpaid ? (
        <p role="status" data-testid="copy-fee-unpaid" className="rounded-lg bg-down/10 p-3 text-sm text-down">
          {t('rank.fee_unpaid_notice', { value: formatNumber(sub.sub_fee, 2) })}
        </p>
      ) : null}
      {suspended ? (
        <p role="status" data-testid="copy-provider-suspended" className="rounded-lg bg-surface-2 p-3 text-sm">
          {t('rank.provider_suspended_notice')}
        </p>
      ) : null}
      {sub.status === 'stopped' ? (
        sub.stop_reason && sub.stop_reason in STOP_REASONS ? (
          <p className="text-xs text-muted">{t(STOP_REASONS[sub.stop_reason as keyof typeof STOP_REASONS])}</p>
        ) : null
      ) : (
        <div className="flex gap-2">
          <Button
            variant="secondary"
            block
            disabled={pause.isPending || suspended}
            data-testid="copy-pause"
            // Resuming an unpaid subscription pays its fee: asked first.
            onClick={() => (unpaid ? setResuming(true) : togglePause())}
          >
            {sub.status === 'active' ? t('rank.pause') : t('rank.resume')}
          </Button>
          <Button variant="danger" block data-testid="copy-unfollow" onClick={() => setAsking(true)}>
            {t('rank.unfollow')}
          </Button>
        </div>
      )}
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        title={t('rank.unfollow_title', { user: sub.provider })}
        footer={
          <div className="flex w-full flex-col gap-2">
            <Button
              variant="danger"
              block
              disabled={unsubscribe.isPending}
              data-testid="copy-unfollow-close"
              onClick={() => unfollow(true)}
            >
              {t('rank.unfollow_close')}
            </Button>
            <Button variant="secondary" block disabled={unsubscribe.isPending} onClick={() => unfollow(false)}>
              {t('rank.unfollow_keep')}
            </Button>
          </div>
        }
      >
        <p className="text-sm">{t('rank.unfollow_text')}</p>
      </Dialog>
      <ConfirmDialog
        open={resuming}
        title={t('rank.confirm_resume_title')}
        onCancel={() => setResuming(false)}
        onConfirm={togglePause}
        busy={pause.isPending}
        confirmLabel={t('rank.resume')}
      >
        <p className="text-sm">{t('rank.confirm_resume_fee', { user: sub.provider, value: formatNumber(sub.sub_fee, 2) })}</p>
      </ConfirmDialog>
    </li>
  );
}

/** The user as a strategy provider: opt in with a performance fee; followers' count and assets, never who they are. */
function ProviderCard({ summary }: { summary: ProviderSummary | null }) {
  const { t } = useTranslation();
  const enable = useProviderEnable();
  const [fee, setFee] = useState(summary?.fee_pct ? String(Number(summary.fee_pct)) : '0');
  const [subFee, setSubFee] = useState(summary?.sub_fee ? dec(summary.sub_fee).toString() : '0');
  const [asking, setAsking] = useState<'on' | 'off' | null>(null);
  const enabled = summary?.enabled ?? false;
  const feeValid =
    /^\d{1,2}(\.\d{1,2})?$/.test(fee) && Number(fee) <= 50 && /^\d{1,5}(\.\d{1,2})?$/.test(subFee) && Number(subFee) <= 10_000;
  const confirm = () =>
    enable.mutate(asking === 'off' ? { enabled: 0 } : { enabled: 1, fee_pct: fee, sub_fee: subFee }, { onSettled: () => setAsking(null) });
  return (
    <section aria-labelledby="provider-title" data-testid="provider-card" className="m-4 flex flex-col gap-3 rounded-xl bg-surface p-4">
      <h2 id="provider-title" className="font-medium">
        {t('rank.provider_title')}
      </h2>
      {enabled && summary ? (
        <>
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
            <div>
              <dt className="text-[11px] text-muted">{t('rank.followers')}</dt>
              <dd className="tabular-nums" data-testid="provider-followers">
                {formatNumber(summary.followers, 0)}
              </dd>
            </div>
            <div>
              <dt className="text-[11px] text-muted">{t('rank.follower_assets')}</dt>
              <dd className="tabular-nums">
                <span dir="ltr">{formatMoney(summary.follower_assets)}</span>
              </dd>
            </div>
            <div>
              <dt className="text-[11px] text-muted">{t('rank.performance_fee')}</dt>
              <dd className="tabular-nums">
                <span dir="ltr">{formatNumber(summary.fee_pct, 2)}%</span>
              </dd>
            </div>
            <div>
              <dt className="text-[11px] text-muted">{t('rank.fees_earned')}</dt>
              <dd className="tabular-nums">
                <span dir="ltr">{formatMoney(summary.fees_earned)}</span>
              </dd>
            </div>
            <div>
              <dt className="text-[11px] text-muted">{t('rank.sub_fee')}</dt>
              <dd className="tabular-nums" data-testid="provider-sub-fee">
                {charges(summary.sub_fee) ? t('rank.sub_fee_value', { value: formatNumber(summary.sub_fee, 2) }) : '--'}
              </dd>
            </div>
            <div>
              <dt className="text-[11px] text-muted">{t('rank.sub_fees_earned')}</dt>
              <dd className="tabular-nums">
                <span dir="ltr">{formatMoney(summary.sub_fees_earned)}</span>
              </dd>
            </div>
          </dl>
          {summary.suspended ? (
            <p role="status" data-testid="provider-suspended" className="rounded-lg bg-down/10 p-3 text-sm text-down">
              {t('rank.provider_suspended_self')}
            </p>
          ) : null}
          <Button variant="secondary" data-testid="provider-disable" onClick={() => setAsking('off')}>
            {t('rank.provider_disable')}
          </Button>
        </>
      ) : (
        <>
          <p className="text-sm text-muted">{t('rank.provider_text')}</p>
          <Field
            label={t('rank.performance_fee')}
            hint={t('rank.fee_hint')}
            inputMode="decimal"
            dir="ltr"
            data-testid="provider-fee"
            end={<span className="text-sm text-muted">%</span>}
            value={fee}
            onChange={(e) => setFee(e.target.value.trim())}
          />
          <Field
            label={t('rank.sub_fee')}
            hint={t('rank.sub_fee_hint')}
            inputMode="decimal"
            dir="ltr"
            data-testid="provider-sub-fee-input"
            end={<span className="text-sm text-muted">USD</span>}
            value={subFee}
            onChange={(e) => setSubFee(e.target.value.trim())}
          />
          <Button disabled={!feeValid} data-testid="provider-enable" onClick={() => setAsking('on')}>
            {t('rank.provider_enable')}
          </Button>
        </>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={asking === 'off' ? t('rank.provider_disable') : t('rank.provider_enable')}
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        busy={enable.isPending}
      >
        <p className="text-sm">
          {asking === 'off'
            ? t('rank.provider_disable_text')
            : charges(subFee)
              ? t('rank.provider_enable_text_fee', { value: fee, fee: formatNumber(subFee, 2) })
              : t('rank.provider_enable_text', { value: fee })}
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** /rank/copies: the traders the user copies, with pause and unfollow; and the user's own offer to be copied. */
export function MyCopiesPage() {
  const { t } = useTranslation();
  const mine = useMyCopies();
  return (
    <>
      <PageHeader title={t('rank.my_copies')} />
      <div className="mx-auto w-full max-w-3xl">
        {mine.isPending ? (
          <SkeletonRows rows={4} />
        ) : !mine.data ? (
          <ErrorState onRetry={() => void mine.refetch()} />
        ) : (
          <>
            {mine.data.following.length === 0 ? (
              <EmptyState />
            ) : (
              <ul aria-label={t('rank.my_copies')} className="grid gap-3 p-4 lg:grid-cols-2">
                {mine.data.following.map((sub) => (
                  <CopyCard key={sub.provider_id} sub={sub} />
                ))}
              </ul>
            )}
            <ProviderCard summary={mine.data.provider} />
          </>
        )}
      </div>
    </>
  );
}
