import { apiPost } from '../../../lib/api-client';

/** POST /api/user/logout: ends this session on the server; the app forgets it whatever the answer. */
export async function logoutOnServer(): Promise<void> {
  try {
    await apiPost('/api/user/logout', undefined, { showErrorMessage: false, initial: true });
  } catch {
    // Already expired or offline: the local session is cleared anyway.
  }
}
