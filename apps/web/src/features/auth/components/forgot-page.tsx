import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { SendCodeButton } from '../../../components/ui/send-code-button';
import { useForgetPassword } from '../api/forget-password';
import { AccountInput } from './account-input';
import { AuthCard } from './auth-card';
import { useCodeForm } from './use-code-form';

/** /forgot: a code sent to the account's email or phone, then the new password twice. */
export function ForgotPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { account, onAccount, code, setCode, password, setPassword, rePassword, setRePassword, error, onSendCode, validate } =
    useCodeForm(2);
  const reset = useForgetPassword();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    reset.mutate(
      {
        type: account.type,
        account: account.account.trim(),
        area_id: account.type === 'mobile' ? account.areaId : undefined,
        new_password: password,
        secondary_password: rePassword,
        auth_code: code.trim(),
      },
      { onSuccess: () => navigate('/login', { replace: true }) },
    );
  };

  return (
    <>
      <PageHeader title={t('pages.forgot')} />
      <AuthCard>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <AccountInput value={account} onChange={onAccount} />
          <Field
            label={t('auth.code')}
            value={code}
            inputMode="numeric"
            autoComplete="one-time-code"
            onChange={(e) => setCode(e.target.value)}
            end={
              <SendCodeButton label={t('auth.send_code')} countdownLabel={(s) => t('auth.resend_in', { seconds: s })} onSend={onSendCode} />
            }
          />
          <Field
            label={t('auth.new_password')}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Field
            label={t('auth.re_password')}
            type="password"
            autoComplete="new-password"
            value={rePassword}
            onChange={(e) => setRePassword(e.target.value)}
          />
          {error && (
            <p role="alert" className="text-sm text-down">
              {error}
            </p>
          )}
          <Button type="submit" block disabled={reset.isPending}>
            {t('auth.reset_submit')}
          </Button>
        </form>
      </AuthCard>
    </>
  );
}
