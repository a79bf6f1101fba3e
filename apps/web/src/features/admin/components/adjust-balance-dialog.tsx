import { useState } from 'react';
import type { AdminUser } from '@tp/contract/schemas/admin';
import * as api from '@tp/contract/endpoints/admin';
import { dec } from '@tp/contract/decimal';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Field } from '../../../components/ui/field';
import { formatMoney } from '../../../lib/format';
import { useStaffMutation } from '../api/admin-client';

const SIGNED_AMOUNT = /^[-+]?\d{1,18}(\.\d{1,6})?$/;

/** Adds (positive) or takes (negative) money with a reason; one key per dialog so a repeated click posts once. */
export function AdjustBalanceDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation();
  const [key] = useState(() => crypto.randomUUID());
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const adjust = useStaffMutation(api.adjustBalance);
  const valid = SIGNED_AMOUNT.test(amount.trim()) && !dec(amount.trim()).isZero();
  const after = valid ? dec(user.balance).plus(amount.trim()).toString() : null;
  const confirm = () => {
    if (!amount.trim() || !reason.trim()) return setError(t('admin.fill_all'));
    if (!valid) return setError(t('admin.amount_invalid'));
    adjust.mutate({ user_id: user.id, amount: amount.trim(), reason: reason.trim(), key }, { onSuccess: onClose });
  };
  return (
    <ConfirmDialog open title={t('admin.adjust_balance')} busy={adjust.isPending} onCancel={onClose} onConfirm={confirm}>
      <div className="flex flex-col gap-3">
        <p className="text-sm text-muted">{t('admin.adjust_hint')}</p>
        <Field label={t('admin.f.amount')} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        <Field label={t('admin.f.reason')} value={reason} onChange={(e) => setReason(e.target.value)} error={error} />
        <p className="text-sm">
          {t('admin.f.balance')}: {formatMoney(user.balance)}
          {after !== null && ` → ${formatMoney(after)}`}
        </p>
      </div>
    </ConfirmDialog>
  );
}
