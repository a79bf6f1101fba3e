import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';

/** Asks before an action that moves money (close, cancel). */
export function ConfirmDialog({
  title,
  message,
  busy,
  onConfirm,
  onClose,
}: {
  title: string;
  message: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      footer={
        <>
          <Button variant="secondary" block onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button block disabled={busy} onClick={onConfirm}>
            {busy && <Spinner className="size-4" />}
            {t('common.confirm')}
          </Button>
        </>
      }
    >
      <p className="text-sm">{message}</p>
    </Dialog>
  );
}
