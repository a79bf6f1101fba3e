import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

export interface AmendPasswordInput {
  new_password: string;
  re_password: string;
  auth_code: string;
  type: 'email' | 'mobile';
}

/** POST /api/user/amend_password: with a code sent (type 2) to the user's own email or phone. */
export const amendPassword = (input: AmendPasswordInput) =>
  apiPost<null>('/api/user/amend_password', input, { loading: true, showSuccessMessage: true });

export const useAmendPassword = () => useMutation({ mutationFn: amendPassword });

/** POST /api/notify/send_email or send_sms with type 2 (reset) to the user's own address. */
export async function sendResetCode(channel: 'email' | 'mobile', to: string, areaId?: number): Promise<void> {
  const path = channel === 'mobile' ? '/api/notify/send_sms' : '/api/notify/send_email';
  await apiPost(path, { to, area_id: channel === 'mobile' ? areaId : undefined, type: 2 }, { showSuccessMessage: true });
}
