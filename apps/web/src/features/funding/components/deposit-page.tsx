import { useMemo, useState, type FormEvent } from 'react';
import { parseAmount } from '@tp/contract/decimal';
import { MONEY_SCALE } from '@tp/contract/constants';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { Field } from '../../../components/ui/field';
import { ImagePicker } from '../../../components/ui/image-picker';
import { PageHeader } from '../../../components/ui/page-header';
import { QrCode } from '../../../components/ui/qr-code';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { Segmented } from '../../../components/ui/segmented';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { useDepositNetworks, type DepositNetwork } from '../api/get-deposit-networks';
import { useWireInfo, type BankWire } from '../api/get-wire-info';
import { useSubmitDeposit, type DepositInput } from '../api/submit-deposit';
import { formatAmount } from './amount-text';
import { ChipGroup } from './chip-group';
import { DepositRecords } from './deposit-records';
import { DetailRow } from './detail-row';

type Tab = 'coin' | 'bank';

function CoinChannel({ networks, selected, onSelect }: { networks: DepositNetwork[]; selected?: DepositNetwork; onSelect: (n: DepositNetwork) => void }) {
  const { t } = useTranslation();
  const currencies = [...new Set(networks.map((n) => n.currency_code))];
  const protocols = networks.filter((n) => n.currency_code === selected?.currency_code);
  return (
    <div className="flex flex-col gap-4">
      <ChipGroup
        label={t('funding.currency')}
        options={currencies.map((code) => ({ value: code, label: code }))}
        value={selected?.currency_code}
        onChange={(code) => onSelect(networks.find((n) => n.currency_code === code)!)}
      />
      <ChipGroup
        label={t('funding.network')}
        options={protocols.map((n) => ({ value: n.id, label: n.protocol_code }))}
        value={selected?.id}
        onChange={(id) => onSelect(networks.find((n) => n.id === id)!)}
      />
      {selected && (
        <div className="flex flex-col gap-3 rounded-xl bg-surface p-4">
          <QrCode value={selected.address} label={t('funding.address_qr')} />
          <DetailRow label={t('funding.deposit_address')} value={selected.address} copyLabel={t('funding.copy_address')} />
          <p className="text-xs text-muted">{t('funding.network_warning', { currency: selected.currency_code, network: selected.protocol_code })}</p>
        </div>
      )}
    </div>
  );
}

function BankChannel({ wires, notice, selected, onSelect }: { wires: BankWire[]; notice: string; selected?: BankWire; onSelect: (w: BankWire) => void }) {
  const { t } = useTranslation();
  if (wires.length === 0) {
    return (
      <p role="status" className="rounded-xl bg-surface p-4 text-sm text-muted">
        {notice || t('funding.fiat_notice')}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <ChipGroup
        label={t('funding.payment_channel')}
        options={wires.map((w) => ({ value: w.id, label: `${w.bank_name} (${w.currency})` }))}
        value={selected?.id}
        onChange={(id) => onSelect(wires.find((w) => w.id === id)!)}
      />
      {selected && (
        <div className="divide-y divide-border rounded-xl bg-surface px-4 py-1">
          <DetailRow label={t('funding.bank_name')} value={selected.bank_name} copyLabel={t('funding.copy')} />
          <DetailRow label={t('funding.bank_address')} value={selected.bank_address} />
          <DetailRow label={t('funding.bank_swift')} value={selected.bank_swift} copyLabel={t('funding.copy')} />
          <DetailRow label={t('funding.payee_name')} value={selected.payee_name} copyLabel={t('funding.copy')} />
          <DetailRow label={t('funding.payee_account')} value={selected.payee_account} copyLabel={t('funding.copy')} />
          <DetailRow label={t('funding.receiving_currency')} value={selected.currency} />
          <DetailRow label={t('funding.bank_remark')} value={selected.bank_remark} />
        </div>
      )}
    </div>
  );
}

function DepositForm() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('coin');
  const networks = useDepositNetworks(true);
  const wires = useWireInfo(tab === 'bank');
  const [networkId, setNetworkId] = useState<number>();
  const [wireId, setWireId] = useState<number>();
  const [amount, setAmount] = useState('');
  const [proof, setProof] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<DepositInput | null>(null);
  const submit = useSubmitDeposit();

  const network = useMemo(() => networks.data?.find((n) => n.id === networkId) ?? networks.data?.[0], [networks.data, networkId]);
  // Like the coin network: the only or first channel is chosen until the trader picks another.
  const wire = wires.data?.bank_coin.find((w) => w.id === wireId) ?? wires.data?.bank_coin[0];
  const currency = tab === 'coin' ? network?.currency_code : wire?.currency;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (tab === 'bank' && !wire) return setError(t('messages.no_payment_channel'));
    if (tab === 'coin' && !network) return setError(t('messages.no_payment_channel'));
    const parsed = parseAmount(amount, MONEY_SCALE);
    if (!amount.trim() || !proof) return setError(t('messages.input_full'));
    if (!parsed.ok) return setError(t('funding.amount_invalid'));
    setError(null);
    const number = parsed.value.toString();
    setPending(
      tab === 'coin'
        ? { kind: 'coin', number, proofImg: proof, address: network!.address, charge_id: network!.id }
        : { kind: 'bank', number, proofImg: proof, wire_id: wire!.id },
    );
  };

  const confirm = () => {
    if (!pending) return;
    submit.mutate(pending, {
      onSuccess: () => {
        setAmount('');
        setProof(null);
      },
      onSettled: () => setPending(null),
    });
  };

  const channel =
    tab === 'coin' ? (
      networks.isPending ? (
        <SkeletonRows rows={3} />
      ) : networks.isError ? (
        <ErrorState onRetry={() => void networks.refetch()} />
      ) : networks.data.length === 0 ? (
        <EmptyState message={t('messages.no_payment_channel')} />
      ) : (
        <CoinChannel networks={networks.data} selected={network} onSelect={(n) => setNetworkId(n.id)} />
      )
    ) : wires.isPending ? (
      <SkeletonRows rows={3} />
    ) : wires.isError ? (
      <ErrorState onRetry={() => void wires.refetch()} />
    ) : (
      <BankChannel wires={wires.data.bank_coin} notice={wires.data.notice} selected={wire} onSelect={(w) => setWireId(w.id)} />
    );

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 p-4 lg:grid-cols-2">
      <div className="flex flex-col gap-4">
        <Segmented
          label={t('funding.deposit_method')}
          value={tab}
          onChange={(next) => {
            setTab(next);
            setError(null);
          }}
          options={[
            { value: 'coin', label: t('funding.tab_coin') },
            { value: 'bank', label: t('funding.tab_bank') },
          ]}
        />
        {channel}
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <Field
            label={t('funding.deposit_amount')}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            end={currency ? <span className="text-sm text-muted">{currency}</span> : undefined}
          />
          <ImagePicker label={t('funding.proof')} hint={t('funding.upload_hint')} value={proof} onChange={setProof} />
          {error && (
            <p role="alert" className="text-sm text-down">
              {error}
            </p>
          )}
          <Button type="submit" block disabled={submit.isPending}>
            {t('funding.submit_deposit')}
          </Button>
        </form>
      </div>
      <DepositRecords type={tab === 'coin' ? 0 : 1} />
      <ConfirmDialog open={pending !== null} title={t('funding.confirm_deposit')} busy={submit.isPending} onCancel={() => setPending(null)} onConfirm={confirm}>
        <p className="text-sm">{t('funding.confirm_deposit_text', { amount: formatAmount(pending?.number), currency: currency ?? '' })}</p>
      </ConfirmDialog>
    </div>
  );
}

/** /mine/charge: deposit by coin (network, address, QR code) or bank wire, with one proof image; records below. */
export function DepositPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.charge')} />
      <RealAccountOnly>
        <DepositForm />
      </RealAccountOnly>
    </>
  );
}
