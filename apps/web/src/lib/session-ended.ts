import { SESSION_END_REASONS, type SessionEndReason } from '@tp/contract/constants';
import { toast } from '../components/ui/toast-store';
import { i18n } from './i18n';
import { currentPath, loginPath, navigateTo } from './navigation';
import { useSessionStore } from './session-store';

/** The server ended the trader's session (a `session_ended` push): forget it, say why, go to the login. */
export function endSession(reason: string): void {
  if (!useSessionStore.getState().token) return;
  useSessionStore.getState().logout();
  const known = (SESSION_END_REASONS as readonly string[]).includes(reason) ? (reason as SessionEndReason) : 'expired';
  toast(i18n.t(`session_ended.${known}`), 'info');
  const here = currentPath();
  navigateTo(here.startsWith('/login') ? '/login' : loginPath(here), { replace: true });
}
