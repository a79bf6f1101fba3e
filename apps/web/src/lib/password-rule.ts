import { PASSWORD_MAX, PASSWORD_MIN } from '@tp/contract/constants';
import type { TFunction } from 'i18next';

export { passwordLengthOk } from '@tp/contract/constants';

/** The rule the server enforces on a new password (its length), in the current language. */
export const passwordRule = (t: TFunction): string => t('auth.password_rule', { min: PASSWORD_MIN, max: PASSWORD_MAX });
