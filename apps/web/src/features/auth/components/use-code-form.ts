import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendCode, type CodePurpose } from '../../../api/send-code';
import { passwordLengthOk, passwordRule } from '../../../lib/password-rule';
import type { AccountValue } from './account-input';

/**
 * The state shared by the register and forgot-password forms: the account (email or phone), the
 * code sent to it, the new password twice and the form's error line.
 */
export function useCodeForm(purpose: CodePurpose) {
  const { t } = useTranslation();
  const [account, setAccount] = useState<AccountValue>({ type: 'email', account: '' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [rePassword, setRePassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onAccount = useCallback((value: AccountValue) => setAccount(value), []);

  /** Sends the code to the account; true when sent (the button then counts down). */
  const onSendCode = async () => {
    if (!account.account.trim()) {
      setError(t('auth.account_required'));
      return false;
    }
    setError(null);
    try {
      await sendCode(account.type, account.account.trim(), purpose, account.areaId);
      return true;
    } catch {
      return false;
    }
  };

  /** Every field filled, the password as the server's rule wants it and twice the same; otherwise the error line says what is wrong. */
  const validate = (): boolean => {
    if (!account.account.trim() || !code.trim() || !password || !rePassword) {
      setError(t('messages.input_full'));
      return false;
    }
    if (!passwordLengthOk(password)) {
      setError(passwordRule(t));
      return false;
    }
    if (password !== rePassword) {
      setError(t('messages.password_inconsistency'));
      return false;
    }
    setError(null);
    return true;
  };

  return { account, onAccount, code, setCode, password, setPassword, rePassword, setRePassword, error, onSendCode, validate };
}
