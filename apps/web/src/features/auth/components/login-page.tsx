import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { useQueryParam } from '../../../lib/query-params';
import { queryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { useLogin, useLoginDemo, type Session } from '../api/login';
import { AccountInput, type AccountValue } from './account-input';
import { AuthCard } from './auth-card';

/** Only paths inside the app are followed after login. */
const safeRedirect = (target: string | null) => (target && target.startsWith('/') && !target.startsWith('//') ? target : '/');

/** /login?redirect=...: email or phone and password, or a demo account. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const redirect = safeRedirect(useQueryParam('redirect'));
  const storeLogin = useSessionStore((state) => state.login);
  const [account, setAccount] = useState<AccountValue>({ type: 'email', account: '' });
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ account?: string; password?: string }>({});
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
      },
      { onSuccess: (session) => enter(session, redirect) },
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
          <Link to="/register" className="text-accent">
            {t('auth.register_link')}
          </Link>
        </p>
      </AuthCard>
    </>
  );
}
