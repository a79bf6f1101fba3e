import { apiPost } from '../../../lib/api-client';

/** Why a code is sent: 1 register, 2 reset. */
export type CodePurpose = 1 | 2;

/** POST /api/notify/send_email or /api/notify/send_sms: to, area_id, type. */
export async function sendCode(channel: 'email' | 'mobile', to: string, purpose: CodePurpose, areaId?: number): Promise<void> {
  const path = channel === 'mobile' ? '/api/notify/send_sms' : '/api/notify/send_email';
  await apiPost(path, { to, area_id: channel === 'mobile' ? areaId : undefined, type: purpose }, { showSuccessMessage: true });
}
