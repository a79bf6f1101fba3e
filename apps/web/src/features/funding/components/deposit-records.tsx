import { DepositStatus } from '@tp/contract/constants';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { formatAmount } from './amount-text';
import { RecordList } from './record-list';
import { useDepositRecords } from '../api/get-deposit-records';

const statusClass: Record<number, string> = {
  [DepositStatus.UNCHECKED]: 'text-accent',
  [DepositStatus.FINISHED]: 'text-up',
  [DepositStatus.REJECTED]: 'text-down',
  [DepositStatus.INVALID]: 'text-muted',
};

/** The user's deposits of one type with their status, and the remark of a rejected one. */
export function DepositRecords({ type }: { type: 0 | 1 }) {
  const { t } = useTranslation();
  return (
    <RecordList
      title={t('funding.deposit_records')}
      testId="deposit-records"
      records={useDepositRecords(type, true)}
      row={(row) => (
        <>
          <div className="flex items-center gap-3">
            <span className="flex-1 font-medium tabular-nums">
              {formatAmount(row.number)} {row.currency_code}
            </span>
            <span className={statusClass[row.status] ?? 'text-muted'}>{t(`funding.deposit_status_${row.status as 0 | 1 | 2 | 3}`)}</span>
          </div>
          <span className="text-xs text-muted">{formatDateTime(row.created_at)}</span>
          {row.status === DepositStatus.REJECTED && row.remark && (
            <span className="text-xs text-down">{t('funding.remark', { remark: row.remark })}</span>
          )}
        </>
      )}
    />
  );
}
