import { sendEmail, sendSms } from '@tp/contract/endpoints/auth';
import { call } from '../lib/api-client';

/** Why a code is sent: 1 register, 2 reset. */
export type CodePurpose = 1 | 2;

/** Emails or texts a 6-digit code (registration, forgotten password, password change). */
export async function sendCode(channel: 'email' | 'mobile', to: string, purpose: CodePurpose, areaId?: number): Promise<void> {
  const input = { to, area_id: channel === 'mobile' ? areaId : undefined, type: purpose };
  await call(channel === 'mobile' ? sendSms : sendEmail, input, { showSuccessMessage: true });
}
