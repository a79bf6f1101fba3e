import { lazy, type ComponentType } from 'react';

export interface AdminRoute {
  /** Under /admin/, and the menu label's key admin.nav.<path>. */
  path: string;
  /** The staff roles that see it (admin sees all; [] means any staff). */
  roles: readonly string[];
  Screen: ComponentType;
}

/** Each screen is its own chunk, fetched the first time a member opens it. */
function lazyScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): ComponentType {
  return lazy(() => load().then((module) => ({ default: pick(module) })));
}

/**
 * The back office's screens in menu order. The shell and the page read this table; the screens never
 * import the shell, so no screen sits in an import cycle with the menu that lists it.
 */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  {
    path: 'dashboard',
    roles: [],
    Screen: lazyScreen(
      () => import('./components/dashboard-screen'),
      (m) => m.DashboardScreen,
    ),
  },
  {
    path: 'users',
    roles: ['support', 'risk', 'finance'],
    Screen: lazyScreen(
      () => import('./components/users-screen'),
      (m) => m.UsersScreen,
    ),
  },
  {
    path: 'identity',
    roles: ['risk', 'finance', 'support'],
    Screen: lazyScreen(
      () => import('./components/identity-screen'),
      (m) => m.IdentityScreen,
    ),
  },
  {
    path: 'deposits',
    roles: ['finance'],
    Screen: lazyScreen(
      () => import('./components/deposits-screen'),
      (m) => m.DepositsScreen,
    ),
  },
  {
    path: 'withdrawals',
    roles: ['finance'],
    Screen: lazyScreen(
      () => import('./components/withdrawals-screen'),
      (m) => m.WithdrawalsScreen,
    ),
  },
  {
    path: 'trading',
    roles: ['risk'],
    Screen: lazyScreen(
      () => import('./components/trading-screen'),
      (m) => m.TradingScreen,
    ),
  },
  {
    path: 'desk',
    roles: ['risk'],
    Screen: lazyScreen(
      () => import('./components/desk-screen'),
      (m) => m.DeskScreen,
    ),
  },
  {
    path: 'partners',
    roles: ['finance', 'support'],
    Screen: lazyScreen(
      () => import('./components/partners-screen'),
      (m) => m.PartnersScreen,
    ),
  },
  {
    // Copy trading's strategy providers: risk suspends them and sets the minimum track record.
    path: 'copy_providers',
    roles: ['risk', 'finance', 'support'],
    Screen: lazyScreen(
      () => import('./components/copy-providers-screen'),
      (m) => m.CopyProvidersScreen,
    ),
  },
  {
    path: 'fees',
    roles: ['risk'],
    Screen: lazyScreen(
      () => import('./components/fees-screen'),
      (m) => m.FeesScreen,
    ),
  },
  {
    path: 'groups',
    roles: ['risk'],
    Screen: lazyScreen(
      () => import('./components/groups-screen'),
      (m) => m.GroupsScreen,
    ),
  },
  {
    // Four-eyes changes to money rules: the roles that approve them (risk; admin sees all).
    path: 'changes',
    roles: ['risk'],
    Screen: lazyScreen(
      () => import('./components/changes-screen'),
      (m) => m.ChangesScreen,
    ),
  },
  {
    path: 'funding',
    roles: ['finance'],
    Screen: lazyScreen(
      () => import('./components/funding-setup-screen'),
      (m) => m.FundingSetupScreen,
    ),
  },
  {
    path: 'news',
    roles: ['content'],
    Screen: lazyScreen(
      () => import('./components/news-screen'),
      (m) => m.NewsScreen,
    ),
  },
  {
    path: 'content',
    roles: ['content', 'risk', 'support'],
    Screen: lazyScreen(
      () => import('./components/content-screen'),
      (m) => m.ContentScreen,
    ),
  },
  {
    path: 'support',
    roles: ['support'],
    Screen: lazyScreen(
      () => import('./components/support-screen'),
      (m) => m.SupportScreen,
    ),
  },
  {
    path: 'staff',
    roles: ['admin'],
    Screen: lazyScreen(
      () => import('./components/staff-screen'),
      (m) => m.StaffScreen,
    ),
  },
  {
    // Live registration and reset codes: the admin role only, as GET /api/admin/outbox requires.
    path: 'outbox',
    roles: ['admin'],
    Screen: lazyScreen(
      () => import('./components/outbox-screen'),
      (m) => m.OutboxScreen,
    ),
  },
  {
    path: 'audit',
    roles: ['admin'],
    Screen: lazyScreen(
      () => import('./components/audit-screen'),
      (m) => m.AuditScreen,
    ),
  },
  {
    path: 'security',
    roles: [],
    Screen: lazyScreen(
      () => import('./components/security-screen'),
      (m) => m.SecurityScreen,
    ),
  },
];
