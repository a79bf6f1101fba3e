import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { useForgetPassword } from '../api/forget-password';
import { AccountInput } from './account-input';
import { AuthCard } from './auth-card';
import { CodeField, PasswordPairFields } from './code-form-fields';
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
          <CodeField value={code} onChange={setCode} onSend={onSendCode} />
          <PasswordPairFields
            label={t('auth.new_password')}
            password={password}
            onPassword={setPassword}
            rePassword={rePassword}
            onRePassword={setRePassword}
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
