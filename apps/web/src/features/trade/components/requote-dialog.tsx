import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatNumber } from '../../../lib/format';

export interface Requote {
  /** The server's price now, at which the order would fill. */
  price: string;
  /** The price the trader confirmed. */
  seen: string;
  deviation: number;
}

/** The price moved past the trader's tolerance: trade at the new price, or not at all. */
export function RequoteDialog({
  requote,
  precision,
  busy,
  onAccept,
  onCancel,
}: {
  requote: Requote;
  precision: number;
  busy: boolean;
  onAccept: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog open title={t('trade.requote_title')} onCancel={onCancel} onConfirm={onAccept} busy={busy} confirmLabel={t('trade.requote_accept')}>
      <div role="alert" className="flex flex-col gap-3 text-sm">
        <p>{t('trade.requote_text', { deviation: requote.deviation })}</p>
        <dl className="flex flex-col gap-1.5">
          <div className="flex justify-between gap-4">
            <dt className="text-muted">{t('trade.requote_seen')}</dt>
            <dd className="tabular-nums">{formatNumber(requote.seen, precision)}</dd>
          </div>
          <div className="flex justify-between gap-4 font-semibold">
            <dt className="text-muted">{t('trade.requote_new')}</dt>
            <dd className="tabular-nums" data-testid="requote-price">
              {formatNumber(requote.price, precision)}
            </dd>
          </div>
        </dl>
      </div>
    </ConfirmDialog>
  );
}
