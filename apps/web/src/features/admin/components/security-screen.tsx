import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { QrCode } from '../../../components/ui/qr-code';
import { toast } from '../../../components/ui/toast-store';
import { staffRequest } from '../api/admin-client';
import { ScreenTitle } from './admin-shell';

/** Two-factor enrolment: scan the QR code (or type the secret), then prove it with a code. */
export function SecurityScreen() {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [enabled, setEnabled] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      setSetup(await staffRequest('POST', '/api/admin/totp/setup'));
    } catch {
      // The message is already shown as a toast.
    } finally {
      setBusy(false);
    }
  };
  const enable = async () => {
    setBusy(true);
    try {
      await staffRequest('POST', '/api/admin/totp/enable', { code: code.trim() });
      setEnabled(true);
      toast(t('admin.totp_enabled'), 'success');
    } catch {
      // The message is already shown as a toast.
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="flex max-w-md flex-col gap-4">
      <ScreenTitle>{t('admin.nav.security')}</ScreenTitle>
      <p className="text-sm text-muted">{t('admin.totp_intro')}</p>
      {enabled ? (
        <p role="status" className="font-medium text-up">
          {t('admin.totp_enabled')}
        </p>
      ) : !setup ? (
        <Button onClick={start} disabled={busy}>
          {t('admin.totp_start')}
        </Button>
      ) : (
        <div className="flex flex-col gap-3">
          <QrCode value={setup.otpauth_url} label={t('admin.totp_qr')} size={200} />
          <p className="text-center text-sm">
            {t('admin.totp_secret')}: <code data-testid="totp-secret" className="break-all">{setup.secret}</code>
          </p>
          <Field label={t('admin.f.totp')} inputMode="numeric" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
          <Button onClick={enable} disabled={busy || !/^\d{6}$/.test(code.trim())}>
            {t('admin.totp_enable')}
          </Button>
        </div>
      )}
    </section>
  );
}
