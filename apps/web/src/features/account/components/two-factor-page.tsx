import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { QrCode } from '../../../components/ui/qr-code';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { useTwoFactorStatus } from '../../../api/get-two-factor-status';
import { type TotpSetup, useSetupTwoFactor, useSwitchTwoFactor } from '../api/two-factor';

/** Turns two-factor on (scan, then confirm with a code) or off (with a code). */
function TwoFactorForm() {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const enabled = status.data?.enabled ?? false;
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');
  const start = useSetupTwoFactor();
  const change = useSwitchTwoFactor(!enabled);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(code.trim(), {
      onSuccess: () => {
        setCode('');
        setSetup(null);
      },
    });
  };
  if (!status.data) return null;

  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-4 p-4">
      <p role="status" data-testid="totp-status" className={enabled ? 'font-medium text-up' : 'text-muted'}>
        {enabled ? t('account.totp_on') : t('account.totp_off')}
      </p>
      <p className="text-sm text-muted">{t('account.totp_intro')}</p>
      {!enabled && !setup && (
        <Button block data-testid="totp-start" disabled={start.isPending} onClick={() => start.mutate(undefined, { onSuccess: setSetup })}>
          {t('account.totp_start')}
        </Button>
      )}
      {!enabled && setup && (
        <>
          <QrCode value={setup.otpauth_url} label={t('account.totp_qr')} size={200} />
          <p className="text-center text-sm">
            {t('account.totp_key')}:{' '}
            <code dir="ltr" data-testid="totp-secret" className="break-all">
              {setup.secret}
            </code>
          </p>
        </>
      )}
      {(enabled || setup) && (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <Field label={t('account.totp_code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
          <Button type="submit" block variant={enabled ? 'secondary' : undefined} disabled={change.isPending || !/^\d{6}$/.test(code.trim())}>
            {enabled ? t('account.totp_disable') : t('account.totp_enable')}
          </Button>
        </form>
      )}
    </div>
  );
}

/** /mine/two-factor: the trader's optional two-factor sign-in (real accounts only). */
export function TwoFactorPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.two_factor')} />
      <RealAccountOnly>
        <TwoFactorForm />
      </RealAccountOnly>
    </>
  );
}
