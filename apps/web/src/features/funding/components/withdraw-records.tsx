import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useWithdrawRecords } from '../api/get-withdraw-records';
import { formatAmount } from './amount-text';
import { RecordList } from './record-list';

const statusClass = ['text-accent', 'text-up', 'text-down'];

/** The user's withdrawals of one type: amount, fee, received, status and the staff note. */
export function WithdrawRecords({ type }: { type: 1 | 2 }) {
  const { t } = useTranslation();
  return (
    <RecordList
      title={t('funding.withdraw_records')}
      testId="withdraw-records"
      records={useWithdrawRecords(type, true)}
      row={(row) => (
        <>
          <div className="flex items-center gap-3">
            <span className="flex-1 font-medium tabular-nums">{formatMoney(row.number)} USD</span>
            <span className={statusClass[row.status] ?? 'text-muted'}>{t(`funding.withdraw_status_${row.status as 0 | 1 | 2}`)}</span>
          </div>
          <span className="text-xs text-muted">
            {t('funding.fee')}: {formatMoney(row.fee)} USD · {t('funding.received')}: {formatAmount(row.real_number)}{' '}
            {row.draw_currency.code}
          </span>
          <span className="break-all text-xs text-muted" dir="ltr">
            {row.address || row.payee_account}
          </span>
          <span className="text-xs text-muted">{formatDateTime(row.created_at)}</span>
          {row.notes && <span className="text-xs text-down">{t('funding.remark', { remark: row.notes })}</span>}
        </>
      )}
    />
  );
}
