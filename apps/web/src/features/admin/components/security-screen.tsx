import { useState } from 'react';
import type { OutputOf } from '@tp/contract/endpoint';
import * as api from '@tp/contract/endpoints/admin';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { QrCode } from '../../../components/ui/qr-code';
import { toast } from '../../../components/ui/toast-store';
import { call } from '../../../lib/api-client';
import { ScreenTitle } from './screen-header';
import { RecoveryCodes } from './recovery-codes';

/** Two-factor enrolment: scan the QR code (or type the secret), then prove it with a code. */
export function SecurityScreen() {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<OutputOf<typeof api.totpSetup> | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [enabled, setEnabled] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [renewCode, setRenewCode] = useState('');
  const start = async () => {
    setBusy(true);
    try {
      setSetup(await call(api.totpSetup, undefined));
    } catch {
      // The message is already shown as a toast.
    } finally {
      setBusy(false);
    }
  };
  const enable = async () => {
    setBusy(true);
    try {
      const res = await call(api.totpEnable, { code: code.trim() });
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
      const res = await call(api.totpRecoveryCodes, { code: renewCode.trim() });
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
