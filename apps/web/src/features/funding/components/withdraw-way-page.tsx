import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorState } from '../../../components/ui/error-state';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { useQueryParam } from '../../../lib/query-params';
import { useBindDrawMethod } from '../api/bind-draw-method';
import { useWithdrawCurrencies } from '../api/get-withdraw-currencies';
import { ChipGroup } from './chip-group';

const BANK_FIELDS = ['bank_name', 'bank_address', 'bank_swift', 'payee_name', 'payee_account'] as const;
type BankField = (typeof BANK_FIELDS)[number];
const OPTIONAL: BankField[] = ['bank_address', 'bank_swift'];

function BindForm({ type }: { type: 1 | 2 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const preset = Number(useQueryParam('draw_id')) || undefined;
  const currencies = useWithdrawCurrencies(type, true);
  const [currencyId, setCurrencyId] = useState<number | undefined>(preset);
  const currency = currencies.data?.find((c) => c.id === currencyId) ?? currencies.data?.[0];
  const [address, setAddress] = useState('');
  const [bank, setBank] = useState<Record<BankField, string>>({
    bank_name: '',
    bank_address: '',
    bank_swift: '',
    payee_name: '',
    payee_account: '',
  });
  const [error, setError] = useState<string | null>(null);
  const bind = useBindDrawMethod();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!currency) return setError(t('messages.input_full'));
    if (type === 1 && !address.trim()) return setError(t('messages.input_full'));
    if (type === 2 && BANK_FIELDS.some((f) => !OPTIONAL.includes(f) && !bank[f].trim())) return setError(t('messages.input_full'));
    setError(null);
    const fields =
      type === 1 ? { dc_address: address.trim() } : Object.fromEntries(BANK_FIELDS.map((f) => [f, bank[f].trim() || undefined]));
    bind.mutate(
      { type, draw_id: currency.id, ...fields },
      { onSuccess: () => navigate(type === 1 ? '/mine/coin-address-list' : '/mine/bank-card-list', { replace: true }) },
    );
  };

  if (currencies.isPending) return <SkeletonRows rows={3} />;
  if (currencies.isError) return <ErrorState onRetry={() => void currencies.refetch()} />;
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <ChipGroup
        label={type === 1 ? t('funding.network') : t('funding.receiving_currency')}
        options={currencies.data.map((c) => ({ value: c.id, label: c.protocol ? `${c.code} (${c.protocol})` : c.code }))}
        value={currency?.id}
        onChange={setCurrencyId}
      />
      {type === 1 ? (
        <Field
          label={t('funding.wallet_address')}
          autoComplete="off"
          dir="ltr"
          value={address}
          onChange={(e) => setAddress(e.target.value)}
        />
      ) : (
        BANK_FIELDS.map((field) => (
          <Field
            key={field}
            label={t(`funding.${field}`)}
            autoComplete="off"
            value={bank[field]}
            onChange={(e) => setBank({ ...bank, [field]: e.target.value })}
          />
        ))
      )}
      {error && (
        <p role="alert" className="text-sm text-down">
          {error}
        </p>
      )}
      <Button type="submit" block disabled={bind.isPending}>
        {t('funding.bind')}
      </Button>
    </form>
  );
}

/** /mine/withdraw-way?type=1|2: binds a coin address (1) or a bank account (2) to a withdrawal currency. */
export function WithdrawWayPage() {
  const { t } = useTranslation();
  const type: 1 | 2 = useQueryParam('type') === '2' ? 2 : 1;
  return (
    <>
      <PageHeader title={type === 1 ? t('funding.add_address') : t('funding.add_bank')} />
      <RealAccountOnly>
        <div className="mx-auto w-full max-w-md p-4">
          <BindForm key={type} type={type} />
        </div>
      </RealAccountOnly>
    </>
  );
}
