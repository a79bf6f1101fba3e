import { dec } from '@tp/contract/decimal';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Sheet } from '../../../components/ui/dialog';
import { ErrorState } from '../../../components/ui/error-state';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { Segmented } from '../../../components/ui/segmented';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { toast } from '../../../components/ui/toast-store';
import { formatNumber } from '../../../lib/format';
import { loginPath } from '../../../lib/navigation';
import { useQueryParam } from '../../../lib/query-params';
import { isDemoUser, useSessionStore } from '../../../lib/session-store';
import { type SubscribeInput, useSubscribe, useTraderProfile } from '../api/copy-trading';
import { EquityCurve } from './equity-curve';
import { HoldTime } from './hold-time';
import { Income, initialOf, Percent } from './trader-figures';

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-lg bg-surface p-3">
      <dt className="text-[11px] text-muted">{label}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}

type Mode = 'amount' | 'ratio';
const DECIMAL = /^\d+(\.\d+)?$/;

/** Whether a fee string ("0.00", "25.00") is a fee at all. */
const charges = (fee: string) => dec(fee).gt(0);

/**
 * The copy sheet: allocation (an amount of the balance or a lot ratio), copy stop-loss and maximum lot,
 * the trader's subscription fee when there is one, then a confirmation (which names the fee charged now).
 */
function SubscribeSheet({
  open,
  onClose,
  providerId,
  user,
  subFee,
}: {
  open: boolean;
  onClose: () => void;
  providerId: number;
  user: string;
  subFee: string;
}) {
  const { t } = useTranslation();
  const subscribe = useSubscribe();
  const [mode, setMode] = useState<Mode>('amount');
  const [value, setValue] = useState('');
  const [stopLoss, setStopLoss] = useState('');
  const [maxLot, setMaxLot] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const valid = DECIMAL.test(value) && Number(value) > 0 && (!stopLoss || DECIMAL.test(stopLoss)) && (!maxLot || DECIMAL.test(maxLot));

  const input: SubscribeInput = {
    provider_id: providerId,
    ...(mode === 'amount' ? { amount: value } : { ratio: value }),
    ...(stopLoss ? { copy_stop_loss: stopLoss } : {}),
    ...(maxLot ? { max_lot: maxLot } : {}),
    // The fee the user saw and confirms: refused by the server if the trader changed it meanwhile.
    ...(charges(subFee) ? { accept_sub_fee: subFee } : {}),
  };
  const confirm = () =>
    subscribe.mutate(input, {
      onSuccess: () => {
        setConfirming(false);
        onClose();
        toast(t('rank.copy_started', { user }), 'success');
      },
      onError: (err) => {
        setConfirming(false);
        setError(err instanceof Error ? err.message : String(err));
      },
    });

  return (
    <>
      <Sheet
        open={open && !confirming}
        onClose={onClose}
        title={t('rank.copy_trader', { user })}
        footer={
          <Button block disabled={!valid} data-testid="copy-submit" onClick={() => (setError(null), setConfirming(true))}>
            {t('rank.copy')}
          </Button>
        }
      >
        <div className="flex flex-col gap-4">
          <Segmented<Mode>
            label={t('rank.allocation')}
            value={mode}
            onChange={setMode}
            options={[
              { value: 'amount', label: t('rank.by_amount') },
              { value: 'ratio', label: t('rank.by_ratio') },
            ]}
          />
          <Field
            label={mode === 'amount' ? t('rank.amount_usd') : t('rank.lot_ratio')}
            hint={mode === 'amount' ? t('rank.amount_hint') : t('rank.ratio_hint')}
            inputMode="decimal"
            dir="ltr"
            data-testid="copy-value"
            value={value}
            onChange={(e) => setValue(e.target.value.trim())}
          />
          <Field
            label={t('rank.copy_stop_loss')}
            hint={t('rank.copy_stop_loss_hint')}
            inputMode="decimal"
            dir="ltr"
            end={<span className="text-sm text-muted">%</span>}
            data-testid="copy-stop-loss"
            value={stopLoss}
            onChange={(e) => setStopLoss(e.target.value.trim())}
          />
          <Field
            label={t('rank.max_lot')}
            inputMode="decimal"
            dir="ltr"
            data-testid="copy-max-lot"
            value={maxLot}
            onChange={(e) => setMaxLot(e.target.value.trim())}
          />
          {charges(subFee) ? (
            <p data-testid="copy-sub-fee" className="rounded-lg bg-surface-2 p-3 text-sm">
              {t('rank.sub_fee_sheet', { value: formatNumber(subFee, 2) })}
            </p>
          ) : null}
          {error ? (
            <p role="alert" data-testid="copy-error" className="text-sm text-down">
              {error}
            </p>
          ) : null}
        </div>
      </Sheet>
      <ConfirmDialog
        open={confirming}
        title={t('rank.confirm_copy_title')}
        onCancel={() => setConfirming(false)}
        onConfirm={confirm}
        busy={subscribe.isPending}
        confirmLabel={t('rank.confirm_copy')}
      >
        <p className="text-sm">
          {mode === 'amount'
            ? t('rank.confirm_copy_amount', { user, value: formatNumber(value, 2) })
            : t('rank.confirm_copy_ratio', { user, value })}
        </p>
        {stopLoss ? <p className="mt-2 text-sm text-muted">{t('rank.confirm_copy_stop', { value: stopLoss })}</p> : null}
        {charges(subFee) ? (
          <p data-testid="confirm-sub-fee" className="mt-2 text-sm font-medium">
            {t('rank.confirm_copy_fee', { value: formatNumber(subFee, 2) })}
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

/** /rank/trader?id=: a trader's statistics, equity curve and the Copy button. */
export function TraderPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const raw = Number(useQueryParam('id'));
  const id = Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  const profile = useTraderProfile(id);
  const user = useSessionStore((s) => s.user);
  const [sheet, setSheet] = useState(false);
  const data = profile.data;
  const stats = data?.stats;

  const onCopy = () => {
    if (!user) navigate(loginPath(`/rank/trader?id=${id}`));
    else if (isDemoUser(user)) toast(t('messages.only_real_account'), 'info');
    else setSheet(true);
  };

  return (
    <>
      <PageHeader title={t('rank.trader_profile')} />
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-4">
        {profile.isPending && id !== null ? (
          <SkeletonRows rows={6} />
        ) : !stats || !data ? (
          <ErrorState onRetry={() => void profile.refetch()} />
        ) : (
          <>
            <div className="flex items-center gap-3">
              <span
                aria-hidden="true"
                className="flex size-12 shrink-0 items-center justify-center rounded-full bg-accent/20 text-lg font-semibold text-accent"
              >
                {initialOf(stats.user)}
              </span>
              <div className="flex min-w-0 flex-1 flex-col">
                <h2 className="truncate text-lg font-semibold">{stats.user}</h2>
                <span className="text-xs text-muted">
                  {t('rank.followers')}: <span className="tabular-nums">{formatNumber(stats.followers, 0)}</span>
                  {stats.copyable ? (
                    <>
                      {' · '}
                      {t('rank.performance_fee')}: <span dir="ltr">{formatNumber(data.fee_pct, 2)}%</span>
                    </>
                  ) : null}
                  {stats.copyable && charges(data.sub_fee) ? (
                    <span data-testid="trader-sub-fee">
                      {' · '}
                      {t('rank.sub_fee')}: {t('rank.sub_fee_value', { value: formatNumber(data.sub_fee, 2) })}
                    </span>
                  ) : null}
                </span>
              </div>
              {data.following ? (
                <Link to="/rank/copies" data-testid="trader-following" className="rounded-full bg-surface-2 px-4 py-2 text-sm font-medium">
                  {t('rank.following')}
                </Link>
              ) : stats.copyable ? (
                <Button data-testid="trader-copy" onClick={onCopy}>
                  {t('rank.copy')}
                </Button>
              ) : (
                <span className="text-xs text-muted">{t('rank.not_copyable')}</span>
              )}
            </div>
            <dl data-testid="trader-stats" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              <Figure label={t('rank.three_week_rate')}>
                <Percent value={stats.three_week_rate} />
              </Figure>
              <Figure label={t('rank.total_rate')}>
                <Percent value={stats.total_rate} />
              </Figure>
              <Figure label={t('rank.win_rate')}>
                <Percent value={stats.three_week_win} signed={false} />
              </Figure>
              <Figure label={t('rank.max_drawdown')}>
                <Percent value={stats.max_drawdown} signed={false} />
              </Figure>
              <Figure label={t('rank.three_week_profit')}>
                <Income value={stats.three_week_profit} />
              </Figure>
              <Figure label={t('rank.total_orders')}>
                <span className="tabular-nums">{formatNumber(stats.total_trade_num, 0)}</span>
              </Figure>
              <Figure label={t('rank.avg_hold')}>
                <HoldTime seconds={stats.avg_hold_seconds} />
              </Figure>
              <Figure label={t('rank.variety')}>
                <span dir="ltr">{stats.code || '--'}</span>
              </Figure>
            </dl>
            <section className="flex flex-col gap-2">
              <h3 className="text-sm font-medium">{t('rank.equity_curve')}</h3>
              <EquityCurve points={data.equity_curve} />
            </section>
            <SubscribeSheet open={sheet} onClose={() => setSheet(false)} providerId={stats.id} user={stats.user} subFee={data.sub_fee} />
          </>
        )}
      </div>
    </>
  );
}
