import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { NavLink, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import * as api from '@tp/contract/endpoints/admin';
import { call } from '../../../lib/api-client';
import type { AdminRoute } from '../routes';
import { useStaffSession } from '../../../lib/staff-session-store';

/** Sidebar on wide screens, a scrolling strip on phones; the member's name and sign-out on top. */
export function AdminShell({ screens, children }: { screens: readonly AdminRoute[]; children: ReactNode }) {
  const { t } = useTranslation();
  const { staff, signOut } = useStaffSession();
  const navigate = useNavigate();
  const logout = async () => {
    await call(api.logout, undefined, { showErrorMessage: false }).catch(() => undefined);
    signOut();
    navigate('/admin', { replace: true });
  };
  return (
    <div className="flex min-h-dvh flex-col bg-bg text-text md:flex-row">
      <nav aria-label={t('admin.menu')} className="shrink-0 border-border bg-surface md:w-56 md:border-e">
        <div className="flex items-center justify-between gap-2 px-4 py-3">
          <span className="font-semibold">{t('admin.title')}</span>
        </div>
        <ul className="flex gap-1 overflow-x-auto px-2 pb-2 md:flex-col md:overflow-visible">
          {screens.map((s) => (
            <li key={s.path}>
              <NavLink
                to={`/admin/${s.path}`}
                className={({ isActive }) =>
                  `block rounded-lg px-3 py-2 text-sm whitespace-nowrap ${isActive ? 'bg-accent text-on-accent' : 'hover:bg-surface-2'}`
                }
              >
                {t(adminKey(`admin.nav.${s.path}`))}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-end gap-3 border-b border-border px-4 py-2 text-sm">
          <span className="text-muted">
            {staff?.name} · {staff?.roles.map((r) => t(adminKey(`admin.role.${r}`))).join(', ')}
          </span>
          <Button variant="secondary" onClick={logout}>
            {t('admin.sign_out')}
          </Button>
        </header>
        <main className="flex-1 p-4">{children}</main>
      </div>
    </div>
  );
}
