import { logout } from '@tp/contract/endpoints/auth';
import { call } from '../../../lib/api-client';
import { dropDeviceSubscription } from './web-push';

/** Ends this session on the server; the app forgets it whatever the answer. */
export async function logoutOnServer(): Promise<void> {
  void dropDeviceSubscription().catch(() => undefined);
  try {
    await call(logout, undefined, { showErrorMessage: false, initial: true });
  } catch {
    // Already expired or offline: the local session is cleared anyway.
  }
}
