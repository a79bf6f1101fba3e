import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/ui/field';
import { SendCodeButton } from '../../../components/ui/send-code-button';
import { passwordRule } from '../../../lib/password-rule';

/** The code field with its "Send code" button and the resend countdown. */
export function CodeField({
  value,
  onChange,
  onSend,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => Promise<boolean>;
}) {
  const { t } = useTranslation();
  return (
    <Field
      label={t('auth.code')}
      value={value}
      inputMode="numeric"
      autoComplete="one-time-code"
      onChange={(e) => onChange(e.target.value)}
      end={<SendCodeButton label={t('auth.send_code')} countdownLabel={(s) => t('auth.resend_in', { seconds: s })} onSend={onSend} />}
    />
  );
}

interface PasswordPairProps {
  /** Label of the first field ("Password" or "New password"). */
  label: string;
  password: string;
  onPassword: (value: string) => void;
  rePassword: string;
  onRePassword: (value: string) => void;
}

/** A new password (with its rule shown under it) and its confirmation. */
export function PasswordPairFields({ label, password, onPassword, rePassword, onRePassword }: PasswordPairProps) {
  const { t } = useTranslation();
  return (
    <>
      <Field
        label={label}
        type="password"
        autoComplete="new-password"
        value={password}
        hint={passwordRule(t)}
        onChange={(e) => onPassword(e.target.value)}
      />
      <Field
        label={t('auth.re_password')}
        type="password"
        autoComplete="new-password"
        value={rePassword}
        onChange={(e) => onRePassword(e.target.value)}
      />
    </>
  );
}
