import { useState, type FormEvent } from 'react';
import { D, dec, parseAmount } from '@tp/contract/decimal';
import { ReviewStatus } from '@tp/contract/constants';
import { withdrawalOf } from '@tp/contract/formulas';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { Segmented } from '../../../components/ui/segmented';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatMoney } from '../../../lib/format';
import { useBalance } from '../../../api/get-balance';
import { useBasicInfo } from '../../../api/get-basic-info';
import { useForexDetail } from '../../../api/get-forex-detail';
import { useDrawMethods, type DrawMethod } from '../api/get-draw-methods';
import { useIdentityStatus } from '../api/get-identity-status';
import { useTwoFactorStatus } from '../../../api/get-two-factor-status';
import { useWithdrawCurrencies } from '../api/get-withdraw-currencies';
import { useSubmitWithdrawal } from '../api/submit-withdrawal';
import { formatAmount } from './amount-text';
import { ChipGroup } from './chip-group';
import { WithdrawRecords } from './withdraw-records';

const methodLabel = (m: DrawMethod) => (m.type === 1 ? m.dc_address : `${m.bank_name} · ${m.payee_account}`);

function WithdrawForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [type, setType] = useState<1 | 2>(1);
  const currencies = useWithdrawCurrencies(type, true);
  const balance = useBalance(true);
  const accountFigures = useForexDetail(true);
  const basic = useBasicInfo();
  const identity = useIdentityStatus(true);
  // As the server checks it: a verified identity when the broker requires one (the default).
  const identityMissing =
    basic.data?.withdraw_requires_identity !== 0 && identity.data !== undefined && identity.data.review_status !== ReviewStatus.VERIFIED;
  const [currencyId, setCurrencyId] = useState<number>();
  const currency = currencies.data?.find((c) => c.id === currencyId) ?? currencies.data?.[0];
  const methods = useDrawMethods(type, currency?.id, currency !== undefined);
  const [methodId, setMethodId] = useState<number>();
  const method = methods.data?.find((m) => m.id === methodId) ?? methods.data?.[0];
  const [amount, setAmount] = useState('');
  const needTotp = useTwoFactorStatus().data?.enabled ?? false;
  const [totp, setTotp] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [askBind, setAskBind] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const submit = useSubmitWithdrawal();

  const parsed = parseAmount(amount, 2);
  // The server's limit: the cash, and no more than the free margin while positions are open.
  const withdrawable =
    balance.data && accountFigures.data
      ? D.min(dec(balance.data.balance), dec(accountFigures.data.available_prepayment))
      : balance.data
        ? dec(balance.data.balance)
        : null;
  const figures =
    parsed.ok && currency ? withdrawalOf(parsed.value, currency.fee_type, currency.draw_rate, currency.usd_price, currency.decimals) : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!currency) return setError(t('messages.input_full'));
    if (!method) return setAskBind(true);
    if (!amount.trim()) return setError(t('messages.input_full'));
    if (!parsed.ok) return setError(t('funding.amount_invalid'));
    // What the server would refuse is said here, before the confirm dialog.
    if (identityMissing) return setError(t('funding.identity_required'));
    if (parsed.value.lt(currency.min_amount)) return setError(t('funding.withdraw_below_min', { min: formatMoney(currency.min_amount) }));
    if (parsed.value.gt(currency.max_amount)) return setError(t('funding.withdraw_above_max', { max: formatMoney(currency.max_amount) }));
    if (withdrawable && parsed.value.gt(withdrawable)) return setError(t('funding.insufficient_balance'));
    if (needTotp && !/^\d{6}$/.test(totp.trim())) return setError(t('messages.input_full'));
    setError(null);
    setConfirming(true);
  };

  const confirm = () => {
    if (!currency || !method || !parsed.ok) return;
    submit.mutate(
      {
        draw_currency_id: currency.id,
        number: parsed.value.toString(),
        draw_method_id: method.id,
        totp: needTotp ? totp.trim() : undefined,
      },
      {
        onSuccess: () => {
          setAmount('');
          setTotp('');
        },
        onSettled: () => setConfirming(false),
      },
    );
  };

  const bindPath = `/mine/withdraw-way?type=${type}${currency ? `&draw_id=${currency.id}` : ''}`;

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 p-4 lg:grid-cols-2">
      <div className="flex flex-col gap-4">
        <Segmented
          label={t('funding.withdraw_method')}
          value={type}
          onChange={(next) => {
            setType(next);
            setCurrencyId(undefined);
            setMethodId(undefined);
            setError(null);
          }}
          options={[
            { value: 1, label: t('funding.tab_coin') },
            { value: 2, label: t('funding.tab_bank') },
          ]}
        />
        <div className="flex items-center justify-between rounded-xl bg-surface px-4 py-3 text-sm">
          <span className="text-muted">{t('funding.available')}</span>
          <span className="font-medium tabular-nums" data-testid="available-balance">
            {formatMoney(balance.data?.balance)} USD
          </span>
        </div>
        {currencies.isPending ? (
          <SkeletonRows rows={2} />
        ) : currencies.isError ? (
          <ErrorState onRetry={() => void currencies.refetch()} />
        ) : currencies.data.length === 0 ? (
          <EmptyState message={t('messages.no_payment_channel')} />
        ) : (
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
            {identityMissing && (
              <p className="rounded-xl bg-surface px-4 py-3 text-sm" data-testid="withdraw-identity-required">
                {t('funding.identity_required')}{' '}
                <Link to="/mine/auth" className="text-accent underline">
                  {t('pages.auth')}
                </Link>
              </p>
            )}
            <ChipGroup
              label={t('funding.currency')}
              options={currencies.data.map((c) => ({ value: c.id, label: c.protocol ? `${c.code} (${c.protocol})` : c.code }))}
              value={currency?.id}
              onChange={(id) => {
                setCurrencyId(id);
                setMethodId(undefined);
              }}
            />
            <div className="flex flex-col gap-1.5">
              <span className="text-sm text-muted">{type === 1 ? t('funding.withdraw_address') : t('funding.withdraw_bank')}</span>
              {methods.isPending ? (
                <SkeletonRows rows={1} />
              ) : (methods.data ?? []).length === 0 ? (
                <button
                  type="button"
                  onClick={() => navigate(bindPath)}
                  className="rounded-lg border border-dashed border-border px-3 py-3 text-start text-sm text-accent"
                >
                  {type === 1 ? t('funding.add_address') : t('funding.add_bank')}
                </button>
              ) : (
                <select
                  aria-label={type === 1 ? t('funding.withdraw_address') : t('funding.withdraw_bank')}
                  value={method?.id ?? ''}
                  onChange={(e) => setMethodId(Number(e.target.value))}
                  className="rounded-lg border border-border bg-surface px-3 py-2.5 text-sm text-text"
                >
                  {methods.data!.map((m) => (
                    <option key={m.id} value={m.id}>
                      {methodLabel(m)}
                    </option>
                  ))}
                </select>
              )}
            </div>
            <Field
              label={t('funding.withdraw_amount')}
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              end={<span className="text-sm text-muted">USD</span>}
            />
            {needTotp && (
              <Field
                label={t('funding.totp_code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={totp}
                onChange={(e) => setTotp(e.target.value)}
              />
            )}
            {currency && (
              <p className="text-xs text-muted">
                {t('funding.limits', { min: formatMoney(currency.min_amount), max: formatMoney(currency.max_amount) })}
              </p>
            )}
            <dl className="grid grid-cols-[1fr_auto] gap-y-2 rounded-xl bg-surface px-4 py-3 text-sm">
              <dt className="text-muted">{t('funding.fee')}</dt>
              <dd className="text-end tabular-nums" data-testid="withdraw-fee">
                {figures ? `${formatMoney(figures.fee.toString())} USD` : '--'}
              </dd>
              <dt className="text-muted">{t('funding.received')}</dt>
              <dd className="text-end tabular-nums" data-testid="withdraw-received">
                {figures && currency ? `${formatAmount(figures.received.toString())} ${currency.code}` : '--'}
              </dd>
            </dl>
            {error && (
              <p role="alert" className="text-sm text-down">
                {error}
              </p>
            )}
            <Button type="submit" block disabled={submit.isPending || identityMissing}>
              {t('funding.submit_withdraw')}
            </Button>
          </form>
        )}
      </div>
      <WithdrawRecords type={type} />
      <ConfirmDialog
        open={askBind}
        title={t('pages.withdraw')}
        confirmLabel={t('funding.go_bind')}
        onCancel={() => setAskBind(false)}
        onConfirm={() => navigate(bindPath)}
      >
        <p className="text-sm">{t('messages.bind_payment_first')}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming}
        title={t('funding.confirm_withdraw')}
        busy={submit.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={confirm}
      >
        {figures && currency && method && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted">{t('funding.withdraw_amount')}</dt>
            <dd className="text-end tabular-nums">{formatMoney(parsed.ok ? parsed.value.toString() : '')} USD</dd>
            <dt className="text-muted">{t('funding.fee')}</dt>
            <dd className="text-end tabular-nums">{formatMoney(figures.fee.toString())} USD</dd>
            <dt className="text-muted">{t('funding.received')}</dt>
            <dd className="text-end tabular-nums">
              {formatAmount(figures.received.toString())} {currency.code}
            </dd>
            <dt className="text-muted">{type === 1 ? t('funding.withdraw_address') : t('funding.withdraw_bank')}</dt>
            <dd className="break-all text-end" dir="ltr">
              {methodLabel(method)}
            </dd>
          </dl>
        )}
      </ConfirmDialog>
    </div>
  );
}

/** /mine/withdraw: currency, amount, live fee and received amount, the bound address or card; records below. */
export function WithdrawPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.withdraw')} />
      <RealAccountOnly>
        <WithdrawForm />
      </RealAccountOnly>
    </>
  );
}
