import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { STAFF_TOTP_REQUIRED } from '@tp/contract/schemas/admin';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { StaffApiError, staffRequest } from '../api/admin-client';
import { type StaffMember, useStaffSession } from '../stores/staff-session';

/** Staff sign-in: email and password, then the authenticator code when two-factor is on. */
export function SignIn() {
  const { t } = useTranslation();
  const signIn = useStaffSession((s) => s.signIn);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needTotp, setNeedTotp] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password || (needTotp && !totp.trim())) {
      setError(t('admin.fill_all'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await staffRequest<{ token: string; staff: StaffMember }>('POST', '/api/admin/login', { email, password, totp: needTotp ? totp.trim() : undefined }, { quiet: true });
      signIn(res.token, res.staff);
    } catch (err) {
      if (err instanceof StaffApiError && err.code === STAFF_TOTP_REQUIRED) setNeedTotp(true);
      else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-dvh items-center justify-center bg-bg px-4 text-text">
      <form onSubmit={submit} className="flex w-full max-w-sm flex-col gap-4 rounded-2xl bg-surface p-6 shadow" aria-label={t('admin.sign_in')}>
        <h1 className="text-xl font-semibold">{t('admin.title')}</h1>
        {!needTotp ? (
          <>
            <Field label={t('admin.f.email')} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
            <Field label={t('admin.f.password')} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </>
        ) : (
          <>
            <p className="text-sm text-muted">{t('admin.totp_prompt')}</p>
            <Field label={t('admin.f.totp')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={totp} onChange={(e) => setTotp(e.target.value)} autoFocus />
          </>
        )}
        {error && (
          <p role="alert" className="text-sm text-down">
            {error}
          </p>
        )}
        <Button type="submit" block disabled={busy}>
          {t('admin.sign_in')}
        </Button>
      </form>
    </main>
  );
}
