import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { NavLink, useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import * as api from '@tp/contract/endpoints/admin';
import { call } from '../../../lib/api-client';
import { useStaffSession } from '../../../lib/staff-session-store';
import { AuditScreen } from './audit-screen';
import { ContentScreen } from './content-screen';
import { DashboardScreen } from './dashboard-screen';
import { DepositsScreen } from './deposits-screen';
import { FeesScreen } from './fees-screen';
import { FundingSetupScreen } from './funding-setup-screen';
import { IdentityScreen } from './identity-screen';
import { NewsScreen } from './news-screen';
import { SecurityScreen } from './security-screen';
import { StaffScreen } from './staff-screen';
import { SupportScreen } from './support-screen';
import { TradingScreen } from './trading-screen';
import { UsersScreen } from './users-screen';
import { WithdrawalsScreen } from './withdrawals-screen';

export interface Screen {
  path: string;
  roles: readonly string[];
  Component: ComponentType;
}

/** Every screen and the roles that see it in the sidebar (admin sees all; [] means any staff). */
export const SCREENS: Screen[] = [
  { path: 'dashboard', roles: [], Component: DashboardScreen },
  { path: 'users', roles: ['support', 'risk', 'finance'], Component: UsersScreen },
  { path: 'identity', roles: ['risk', 'support'], Component: IdentityScreen },
  { path: 'deposits', roles: ['finance'], Component: DepositsScreen },
  { path: 'withdrawals', roles: ['finance'], Component: WithdrawalsScreen },
  { path: 'trading', roles: ['risk'], Component: TradingScreen },
  { path: 'fees', roles: ['risk'], Component: FeesScreen },
  { path: 'funding', roles: ['finance'], Component: FundingSetupScreen },
  { path: 'news', roles: ['content'], Component: NewsScreen },
  { path: 'content', roles: ['content', 'risk', 'support'], Component: ContentScreen },
  { path: 'support', roles: ['support'], Component: SupportScreen },
  { path: 'staff', roles: ['admin'], Component: StaffScreen },
  { path: 'audit', roles: ['admin'], Component: AuditScreen },
  { path: 'security', roles: [], Component: SecurityScreen },
];

/** Sidebar on wide screens, a scrolling strip on phones; the member's name and sign-out on top. */
export function AdminShell({ screens, children }: { screens: Screen[]; children: ReactNode }) {
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

export function ScreenTitle({ children }: { children: ReactNode }) {
  return <h1 className="mb-4 text-lg font-semibold">{children}</h1>;
}

/** A screen's row of tabs, each labelled admin.tab.<name>. */
export function ScreenTabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
}: {
  tabs: readonly T[];
  value: T;
  onChange: (tab: T) => void;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <div role="tablist" aria-label={label} className="mb-4 flex gap-1 overflow-x-auto">
      {tabs.map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          aria-selected={value === name}
          onClick={() => onChange(name)}
          className={`shrink-0 rounded-lg px-3 py-1.5 text-sm ${value === name ? 'bg-accent text-on-accent' : 'bg-surface-2'}`}
        >
          {t(adminKey(`admin.tab.${name}`))}
        </button>
      ))}
    </div>
  );
}
