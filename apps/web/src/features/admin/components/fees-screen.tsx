import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import * as api from '@tp/contract/endpoints/admin';
import type { InputOf } from '@tp/contract/endpoint';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { call } from '../../../lib/api-client';
import { useStaffMutation, useStaffQuery } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable } from './data-table';
import { adminKey } from './dynamic-key';
import { PromptDialog } from './prompt-dialog';

type Change = InputOf<typeof api.feesPreview>;

/**
 * Trade fees (risk): the fee type and each symbol's rate. A change is first previewed as what a
 * 1-lot trade on each symbol pays before and after, then saved after a confirmation.
 */
export function FeesScreen() {
  const { t } = useTranslation();
  const current = useStaffQuery(api.fees, undefined);
  const [type, setType] = useState<number | null>(null);
  const [rates, setRates] = useState<Record<number, string>>({});
  const [confirming, setConfirming] = useState(false);
  const preview = useMutation({ mutationFn: (c: Change) => call(api.feesPreview, c) });
  const save = useStaffMutation(api.feesSave);
  const feeType = type ?? current.data?.trade_fee_type ?? 1;
  // The rate is USD per lot or a fraction of the margin, as the chosen type says.
  const unit = t(adminKey(`admin.units.fee.${feeType}`));
  const change = (): Change => ({
    trade_fee_type: feeType,
    rates: JSON.stringify(Object.entries(rates).map(([id, fee_rate]) => ({ id: Number(id), fee_rate }))),
  });
  const edited = () => preview.reset();
  const shown = preview.data;
  const reset = () => (setType(null), setRates({}), preview.reset(), setConfirming(false));

  return (
    <section className="flex flex-col gap-4">
      <ScreenTitle>{t('admin.nav.fees')}</ScreenTitle>
      <p className="text-sm text-muted">{t('admin.fees.hint')}</p>
      <label className="flex max-w-sm flex-col gap-1 text-sm">
        <span className="text-muted">{t('admin.setting.trade_fee_type')}</span>
        <select
          className="rounded-lg border border-border bg-surface px-3 py-2"
          value={String(feeType)}
          onChange={(e) => (setType(Number(e.target.value)), edited())}
        >
          {['1', '2'].map((v) => (
            <option key={v} value={v}>
              {t(adminKey(`admin.setting_choice.trade_fee_type.${v}`))}
            </option>
          ))}
        </select>
      </label>
      <DataTable
        rows={shown?.rows ?? current.data?.rows}
        loading={current.isLoading}
        error={current.isError}
        onRetry={() => void current.refetch()}
        label={t('admin.nav.fees')}
        rowKey={(r) => r.id}
        columns={[
          { key: 'code', label: t('admin.f.symbol'), render: (r) => r.code },
          {
            key: 'rate',
            label: t('admin.units.fee_rate', { unit }),
            render: (r) => (
              <span className="flex items-center gap-2">
                <input
                  className="w-28 rounded border border-border bg-surface px-2 py-1 text-end tabular-nums"
                  inputMode="decimal"
                  aria-label={t('admin.units.rate_of', { symbol: r.code, unit })}
                  value={rates[r.id] ?? r.fee_rate_before}
                  onChange={(e) => (setRates({ ...rates, [r.id]: e.target.value }), edited())}
                />
                <span data-testid="fee-unit" className="shrink-0 text-muted">
                  {unit}
                </span>
              </span>
            ),
          },
          { key: 'before', label: t('admin.fees.fee_before'), render: (r) => r.fee_before || '—' },
          {
            key: 'after',
            label: t('admin.fees.fee_after'),
            render: (r) =>
              shown ? (
                <span className={r.in_range ? '' : 'font-medium text-down'}>
                  {r.in_range ? r.fee_after || '—' : t('admin.fees.out_of_range', { max: shown.max_rate })}
                </span>
              ) : (
                '—'
              ),
          },
          { key: 'lev', label: t('admin.fees.leverage'), render: (r) => `x${r.leverage}` },
        ]}
      />
      <div className="flex gap-2">
        <Button variant="secondary" disabled={preview.isPending} onClick={() => preview.mutate(change())}>
          {t('admin.fees.preview')}
        </Button>
        <Button disabled={!shown || shown.rows.some((r) => !r.in_range)} onClick={() => setConfirming(true)}>
          {t('admin.fees.save')}
        </Button>
      </div>
      {confirming && shown && (
        <PromptDialog
          title={t('admin.fees.confirm_title')}
          danger
          busy={save.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => save.mutate(change(), { onSuccess: reset })}
        >
          <p>{t('admin.fees.confirm_hint', { count: shown.rows.filter((r) => r.fee_after !== r.fee_before).length })}</p>
        </PromptDialog>
      )}
    </section>
  );
}
