import { useState, type FormEvent } from 'react';
import { VerifyRegType } from '@tp/contract/constants';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { toast } from '../../../components/ui/toast-store';
import { useQueryParam } from '../../../lib/query-params';
import { queryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { useBasicInfo } from '../../../api/get-basic-info';
import { useCaptcha } from '../api/get-captcha';
import { useRegister } from '../api/register';
import { AccountInput } from './account-input';
import { AuthCard } from './auth-card';
import { CodeField, PasswordPairFields } from './code-form-fields';
import { useCodeForm } from './use-code-form';

/** /register?invite_code=...: email or phone, a code (or a captcha when verify_reg_type is 2), password twice. */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const storeLogin = useSessionStore((state) => state.login);
  const inviteFromLink = useQueryParam('invite_code') ?? '';
  const basic = useBasicInfo();
  const useCaptchaImage = basic.data?.verify_reg_type === VerifyRegType.CAPTCHA;
  const captcha = useCaptcha(useCaptchaImage);
  const { account, onAccount, code, setCode, password, setPassword, rePassword, setRePassword, error, onSendCode, validate } =
    useCodeForm(1);
  const [invite, setInvite] = useState(inviteFromLink);
  const registerMutation = useRegister();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    registerMutation.mutate(
      {
        type: account.type,
        account: account.account.trim(),
        area_id: account.type === 'mobile' ? account.areaId : undefined,
        password,
        re_password: rePassword,
        invite_code: invite.trim() || undefined,
        sms_code: code.trim(),
        key: useCaptchaImage ? captcha.data?.id : undefined,
      },
      {
        onSuccess: (session) => {
          queryClient.clear();
          storeLogin(session.token, session.user);
          toast(t('auth.register_success'), 'success');
          navigate('/', { replace: true });
        },
        onError: () => {
          if (useCaptchaImage) void captcha.refetch();
        },
      },
    );
  };

  return (
    <>
      <PageHeader title={t('pages.register')} />
      <AuthCard>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <AccountInput value={account} onChange={onAccount} />
          {useCaptchaImage ? (
            <Field
              label={t('auth.captcha')}
              value={code}
              autoComplete="off"
              onChange={(e) => setCode(e.target.value)}
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
          ) : (
            <CodeField value={code} onChange={setCode} onSend={onSendCode} />
          )}
          <PasswordPairFields
            label={t('auth.password')}
            password={password}
            onPassword={setPassword}
            rePassword={rePassword}
            onRePassword={setRePassword}
          />
          <Field label={t('auth.invite_code')} value={invite} autoComplete="off" onChange={(e) => setInvite(e.target.value)} />
          {error && (
            <p role="alert" className="text-sm text-down">
              {error}
            </p>
          )}
          <Button type="submit" block disabled={registerMutation.isPending}>
            {t('auth.register_submit')}
          </Button>
        </form>
        <p className="text-center text-sm text-muted">
          {t('auth.have_account')}{' '}
          <Link to="/login" className="text-accent underline">
            {t('auth.login_link')}
          </Link>
        </p>
      </AuthCard>
    </>
  );
}
