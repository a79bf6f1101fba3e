import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { QrCode } from '../../../components/ui/qr-code';
import { toast } from '../../../components/ui/toast-store';
import { staffRequest } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { RecoveryCodes } from './recovery-codes';

/** Two-factor enrolment: scan the QR code (or type the secret), then prove it with a code. */
export function SecurityScreen() {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [enabled, setEnabled] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [renewCode, setRenewCode] = useState('');
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
      const res = await staffRequest<{ recovery_codes: string[] }>('POST', '/api/admin/totp/enable', { code: code.trim() });
      setCodes(res.recovery_codes);
      setEnabled(true);
      toast(t('admin.totp_enabled'), 'success');
    } catch {
      // The message is already shown as a toast.
    } finally {
      setBusy(false);
    }
  };
  const renew = async () => {
    setBusy(true);
    try {
      const res = await staffRequest<{ recovery_codes: string[] }>('POST', '/api/admin/totp/recovery_codes', { code: renewCode.trim() });
      setCodes(res.recovery_codes);
      setRenewCode('');
    } catch {
      // The message is already shown as a toast.
    } finally {
      setBusy(false);
    }
  };
  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
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
            {t('admin.totp_secret')}:{' '}
            <code data-testid="totp-secret" className="break-all">
              {setup.secret}
            </code>
          </p>
          <Field label={t('admin.f.totp')} inputMode="numeric" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
          <Button onClick={enable} disabled={busy || !/^\d{6}$/.test(code.trim())}>
            {t('admin.totp_enable')}
          </Button>
        </div>
      )}
      {(!setup || enabled) && (
        <div className="flex flex-col gap-3 border-t border-border pt-4">
          <h2 className="font-semibold">{t('admin.recovery_title')}</h2>
          <p className="text-sm text-muted">{t('admin.recovery_renew_intro')}</p>
          <Field
            label={t('admin.f.totp')}
            inputMode="numeric"
            maxLength={6}
            value={renewCode}
            onChange={(e) => setRenewCode(e.target.value)}
          />
          <Button variant="secondary" onClick={renew} disabled={busy || !/^\d{6}$/.test(renewCode.trim())}>
            {t('admin.recovery_renew')}
          </Button>
        </div>
      )}
    </section>
  );
}
