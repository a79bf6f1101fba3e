import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutputOf } from '@tp/contract/endpoint';
import * as api from '@tp/contract/endpoints/admin';
import { STAFF_TOTP_REQUIRED, STAFF_TOTP_SETUP } from '@tp/contract/schemas/admin';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { QrCode } from '../../../components/ui/qr-code';
import { ApiError, call } from '../../../lib/api-client';
import { useStaffSession } from '../../../lib/staff-session-store';
import { RecoveryCodes } from './recovery-codes';

type Step = 'password' | 'totp' | 'recovery' | 'setup';
/** Sent with code STAFF_TOTP_SETUP: the first sign-in of a role that moves money sets up two-factor. */
type Setup = OutputOf<typeof api.totpSetup>;
type Answer = OutputOf<typeof api.login>;

/**
 * Staff sign-in: email and password, then the authenticator code (or a recovery code). A member
 * whose roles need two-factor and has none yet scans a QR code first, then keeps the recovery codes.
 */
export function SignIn() {
  const { t } = useTranslation();
  const signIn = useStaffSession((s) => s.signIn);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<Step>('password');
  const [setup, setSetup] = useState<Setup | null>(null);
  const [done, setDone] = useState<Answer | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password || (step !== 'password' && !code.trim())) {
      setError(t('admin.fill_all'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const second = step === 'recovery' ? { recovery_code: code.trim() } : step === 'password' ? {} : { totp: code.trim() };
      const res = await call(api.login, { email, password, ...second }, { session: 'staff', showErrorMessage: false });
      if (res.recovery_codes?.length) setDone(res);
      else signIn(res.token, res.staff);
    } catch (err) {
      if (err instanceof ApiError && err.code === STAFF_TOTP_REQUIRED) setStep('totp');
      else if (err instanceof ApiError && err.code === STAFF_TOTP_SETUP) {
        setSetup(err.data as Setup);
        setStep('setup');
      } else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const switchTo = (next: Step) => {
    setCode('');
    setError(null);
    setStep(next);
  };

  return (
    <main className="flex min-h-dvh items-center justify-center bg-bg px-4 py-6 text-text">
      <div className="flex w-full max-w-sm flex-col gap-4 rounded-2xl bg-surface p-6 shadow">
        <h1 className="text-xl font-semibold">{t('admin.title')}</h1>
        {done ? (
          <RecoveryCodes codes={done.recovery_codes!} onDone={() => signIn(done.token, done.staff)} />
        ) : (
          <form onSubmit={submit} className="flex flex-col gap-4" aria-label={t('admin.sign_in')}>
            {step === 'password' && (
              <>
                <Field label={t('admin.f.email')} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
                <Field label={t('admin.f.password')} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
              </>
            )}
            {step === 'setup' && setup && (
              <>
                <h2 className="font-semibold">{t('admin.totp_setup_title')}</h2>
                <p className="text-sm text-muted">{t('admin.totp_setup_intro')}</p>
                <QrCode value={setup.otpauth_url} label={t('admin.totp_qr')} size={180} />
                <p className="text-center text-sm">
                  {t('admin.totp_secret')}:{' '}
                  <code dir="ltr" data-testid="totp-secret" className="break-all">
                    {setup.secret}
                  </code>
                </p>
              </>
            )}
            {step === 'totp' && <p className="text-sm text-muted">{t('admin.totp_prompt')}</p>}
            {step === 'recovery' && <p className="text-sm text-muted">{t('admin.recovery_prompt')}</p>}
            {step !== 'password' && (
              <Field
                label={step === 'recovery' ? t('admin.f.recovery_code') : t('admin.f.totp')}
                inputMode={step === 'recovery' ? 'text' : 'numeric'}
                autoComplete="one-time-code"
                maxLength={step === 'recovery' ? 20 : 6}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                autoFocus
              />
            )}
            {error && (
              <p role="alert" className="text-sm text-down">
                {error}
              </p>
            )}
            <Button type="submit" block disabled={busy}>
              {step === 'setup' ? t('admin.totp_enable') : t('admin.sign_in')}
            </Button>
            {(step === 'totp' || step === 'recovery') && (
              <button type="button" className="text-sm text-accent" onClick={() => switchTo(step === 'totp' ? 'recovery' : 'totp')}>
                {step === 'totp' ? t('admin.use_recovery') : t('admin.use_totp')}
              </button>
            )}
          </form>
        )}
      </div>
    </main>
  );
}
