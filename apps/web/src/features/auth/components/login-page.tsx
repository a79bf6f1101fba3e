import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LOGIN_CAPTCHA_REQUIRED, LOGIN_TOTP_REQUIRED } from '@tp/contract/codes';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { safeRedirect } from '../../../lib/navigation';
import { useQueryParam } from '../../../lib/query-params';
import { queryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { ApiError } from '../../../lib/api-client';
import { useCaptcha } from '../api/get-captcha';
import { useLogin, useLoginDemo, type Session } from '../api/login';
import { AccountInput, type AccountValue } from './account-input';
import { AuthCard } from './auth-card';

/** /login?redirect=...: email or phone and password, or a demo account. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const redirect = safeRedirect(useQueryParam('redirect'));
  const storeLogin = useSessionStore((state) => state.login);
  const [account, setAccount] = useState<AccountValue>({ type: 'email', account: '' });
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ account?: string; password?: string }>({});
  // The server asks for these when needed: a captcha after failed logins, a code with two-factor on.
  const [needCaptcha, setNeedCaptcha] = useState(false);
  const [needTotp, setNeedTotp] = useState(false);
  const [captchaAnswer, setCaptchaAnswer] = useState('');
  const [totp, setTotp] = useState('');
  const captcha = useCaptcha(needCaptcha);
  const loginMutation = useLogin();
  const demoMutation = useLoginDemo();
  const onAccount = useCallback((value: AccountValue) => setAccount(value), []);

  const enter = (session: Session, to: string) => {
    queryClient.clear();
    storeLogin(session.token, session.user);
    navigate(to, { replace: true });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!account.account.trim()) next.account = t('auth.account_required');
    else if (!password) next.password = t('auth.password_required');
    setErrors(next);
    if (next.account || next.password) return;
    loginMutation.mutate(
      {
        account: account.account.trim(),
        password,
        login_type: account.type,
        area_id: account.type === 'mobile' ? account.areaId : undefined,
        key: needCaptcha ? captcha.data?.id : undefined,
        captcha: needCaptcha ? captchaAnswer.trim() : undefined,
        totp: needTotp ? totp.trim() : undefined,
      },
      {
        onSuccess: (session) => enter(session, redirect),
        onError: (error) => {
          const code = error instanceof ApiError ? error.code : null;
          if (code === LOGIN_CAPTCHA_REQUIRED) setNeedCaptcha(true);
          if (code === LOGIN_TOTP_REQUIRED) setNeedTotp(true);
          setCaptchaAnswer('');
          if (needCaptcha) void captcha.refetch();
        },
      },
    );
  };

  const busy = loginMutation.isPending || demoMutation.isPending;
  return (
    <>
      <PageHeader title={t('pages.login')} />
      <AuthCard>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <AccountInput value={account} onChange={onAccount} error={errors.account} />
          <Field
            label={t('auth.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            error={errors.password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {needCaptcha && (
            <Field
              label={t('auth.captcha')}
              value={captchaAnswer}
              autoComplete="off"
              onChange={(e) => setCaptchaAnswer(e.target.value)}
              end={
                <button
                  type="button"
                  aria-label={t('auth.captcha_refresh')}
                  onClick={() => void captcha.refetch()}
                  className="h-11 w-28 shrink-0 overflow-hidden rounded-lg bg-white"
                >
                  {captcha.data && <img src={captcha.data.b64s} alt={t('auth.captcha')} className="size-full object-contain" />}
                </button>
              }
            />
          )}
          {needTotp && (
            <Field
              label={t('auth.totp_code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={totp}
              onChange={(e) => setTotp(e.target.value)}
              autoFocus
            />
          )}
          <div className="flex justify-end">
            <Link to="/forgot" className="text-sm text-accent">
              {t('auth.forgot_link')}
            </Link>
          </div>
          <Button type="submit" block disabled={busy}>
            {t('auth.login_submit')}
          </Button>
        </form>
        <Button
          variant="secondary"
          block
          disabled={busy}
          onClick={() => demoMutation.mutate(undefined, { onSuccess: (session) => enter(session, '/') })}
        >
          {t('auth.demo_login')}
        </Button>
        <p className="text-center text-sm text-muted">
          {t('auth.no_account')}{' '}
          <Link to="/register" className="text-accent underline">
            {t('auth.register_link')}
          </Link>
        </p>
      </AuthCard>
    </>
  );
}
