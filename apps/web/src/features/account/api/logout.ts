import { logout } from '@tp/contract/endpoints/auth';
import { call } from '../../../lib/api-client';

/** Ends this session on the server; the app forgets it whatever the answer. */
export async function logoutOnServer(): Promise<void> {
  try {
    await call(logout, undefined, { showErrorMessage: false, initial: true });
  } catch {
    // Already expired or offline: the local session is cleared anyway.
  }
}
