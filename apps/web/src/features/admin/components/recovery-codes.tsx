import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';

/** One-time recovery codes, shown once: the member must keep them before going on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-3" data-testid="recovery-codes">
      <h2 className="font-semibold">{t('admin.recovery_title')}</h2>
      <p className="text-sm text-muted">{t('admin.recovery_intro')}</p>
      <ul dir="ltr" className="grid grid-cols-2 gap-2 rounded-lg bg-surface-2 p-3 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <Button onClick={onDone}>{t('admin.recovery_saved')}</Button>
    </div>
  );
}
