import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { SendCodeButton } from '../../../components/ui/send-code-button';
import { sendCode } from '../../../api/send-code';
import { passwordLengthOk, passwordRule } from '../../../lib/password-rule';
import { useAmendPassword } from '../api/amend-password';
import { useUserInfo } from '../api/get-user-info';

function PasswordForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useUserInfo();
  const [password, setPassword] = useState('');
  const [rePassword, setRePassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const amend = useAmendPassword();
  const channel: 'email' | 'mobile' = info.data?.email ? 'email' : 'mobile';
  const destination = channel === 'email' ? info.data?.email : info.data?.mobile;

  const onSend = async () => {
    if (!destination) return false;
    try {
      await sendCode(channel, destination, 2, info.data?.area_id);
      return true;
    } catch {
      return false;
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!password || !rePassword || !code.trim()) return setError(t('messages.input_full'));
    if (!passwordLengthOk(password)) return setError(passwordRule(t));
    if (password !== rePassword) return setError(t('messages.password_inconsistency'));
    setError(null);
    amend.mutate(
      { new_password: password, re_password: rePassword, auth_code: code.trim(), type: channel },
      { onSuccess: () => navigate('/user', { replace: true }) },
    );
  };

  return (
    <form noValidate onSubmit={onSubmit} className="mx-auto flex w-full max-w-md flex-col gap-4 p-4">
      {destination && <p className="text-sm text-muted">{t('account.code_sent_to', { destination })}</p>}
      <Field
        label={t('account.new_password')}
        type="password"
        autoComplete="new-password"
        value={password}
        hint={passwordRule(t)}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Field
        label={t('account.confirm_password')}
        type="password"
        autoComplete="new-password"
        value={rePassword}
        onChange={(e) => setRePassword(e.target.value)}
      />
      <Field
        label={t('account.code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        end={
          <SendCodeButton label={t('account.send_code')} countdownLabel={(s) => t('account.resend_in', { seconds: s })} onSend={onSend} />
        }
      />
      {error && (
        <p role="alert" className="text-sm text-down">
          {error}
        </p>
      )}
      <Button type="submit" block disabled={amend.isPending}>
        {t('account.save_password')}
      </Button>
    </form>
  );
}

/** /mine/password: new password twice ("please complete", mismatch message) and a code to the user's own address. */
export function PasswordPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.password')} />
      <RealAccountOnly>
        <PasswordForm />
      </RealAccountOnly>
    </>
  );
}
