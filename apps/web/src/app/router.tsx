import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/ui/spinner';
import { HomePage } from '../features/markets/components/home-page';
import { featureTranslations } from '../lib/i18n';
import { setNavigator } from '../lib/navigation';
import { DesktopOrMobileRoot } from './layouts/root-layout';
import { requireAuth } from './require-auth';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-handle';

/**
 * Each page but home is its own chunk, fetched the first time its route is opened together with the
 * other features' translations (the boot chunk carries only the first screen's strings).
 */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  const Page = lazy(() => Promise.all([load(), featureTranslations()]).then(([module]) => ({ default: pick(module) })));
  return <Page />;
}

/** Pages cached by the keep-alive outlet that show the footer tab bar (spec section 2). */
const cached = (key: string, requiresAuth = false): RouteHandle => ({ keepAlive: key, tabBar: true, requiresAuth });

// One element for /user and /mine, so both show the same kept-alive instance.
const userPage = requireAuth(
  lazyPage(
    () => import('../features/account/components/user-page'),
    (m) => m.UserPage,
  ),
);

const traderRoutes: RouteObject[] = [
  { index: true, element: <HomePage />, handle: cached('home') },
  {
    path: 'trade',
    element: lazyPage(
      () => import('./trade-route'),
      (m) => m.TradeRoute,
    ),
    handle: { ...cached('trade'), wide: true },
  },
  {
    path: 'order',
    element: requireAuth(
      lazyPage(
        () => import('../features/orders/components/orders-page'),
        (m) => m.OrdersPage,
      ),
    ),
    handle: cached('order', true),
  },
  { path: 'user', element: userPage, handle: cached('user', true) },
  { path: 'mine', element: userPage, handle: cached('user', true) },
  {
    path: 'news',
    element: lazyPage(
      () => import('../features/news/components/news-list-page'),
      (m) => m.NewsListPage,
    ),
    handle: cached('news'),
  },
  {
    path: 'rank',
    element: lazyPage(
      () => import('../features/rank/components/rank-page'),
      (m) => m.RankPage,
    ),
    handle: cached('rank'),
  },
  {
    path: 'rank/trader',
    element: lazyPage(
      () => import('../features/rank/components/trader-page'),
      (m) => m.TraderPage,
    ),
  },
  {
    path: 'rank/copies',
    element: requireAuth(
      lazyPage(
        () => import('../features/rank/components/my-copies-page'),
        (m) => m.MyCopiesPage,
      ),
    ),
  },
  {
    path: 'news/detail',
    element: lazyPage(
      () => import('../features/news/components/news-detail-page'),
      (m) => m.NewsDetailPage,
    ),
  },
  {
    path: 'feedback',
    element: lazyPage(
      () => import('../features/support/components/feedback-page'),
      (m) => m.FeedbackPage,
    ),
  },
  {
    path: 'login',
    element: lazyPage(
      () => import('../features/auth/components/login-page'),
      (m) => m.LoginPage,
    ),
  },
  {
    path: 'register',
    element: lazyPage(
      () => import('../features/auth/components/register-page'),
      (m) => m.RegisterPage,
    ),
  },
  {
    path: 'forgot',
    element: lazyPage(
      () => import('../features/auth/components/forgot-page'),
      (m) => m.ForgotPage,
    ),
  },
  {
    path: 'product',
    element: lazyPage(
      () => import('../features/markets/components/product-page'),
      (m) => m.ProductPage,
    ),
  },
  {
    path: 'language',
    element: lazyPage(
      () => import('../features/language/components/language-page'),
      (m) => m.LanguagePage,
    ),
  },
  {
    path: 'mine/statements',
    element: requireAuth(
      lazyPage(
        () => import('../features/statements/components/statements-page'),
        (m) => m.StatementsPage,
      ),
    ),
  },
  {
    path: 'mine/history',
    element: requireAuth(
      lazyPage(
        () => import('../features/account/components/account-history-page'),
        (m) => m.AccountHistoryPage,
      ),
    ),
  },
  {
    path: 'mine/charge',
    element: requireAuth(
      lazyPage(
        () => import('../features/funding/components/deposit-page'),
        (m) => m.DepositPage,
      ),
    ),
  },
  {
    path: 'mine/withdraw',
    element: requireAuth(
      lazyPage(
        () => import('../features/funding/components/withdraw-page'),
        (m) => m.WithdrawPage,
      ),
    ),
  },
  {
    path: 'mine/withdraw-way',
    element: requireAuth(
      lazyPage(
        () => import('../features/funding/components/withdraw-way-page'),
        (m) => m.WithdrawWayPage,
      ),
    ),
  },
  {
    path: 'mine/wallet',
    element: requireAuth(
      lazyPage(
        () => import('../features/funding/components/wallet-page'),
        (m) => m.WalletPage,
      ),
    ),
  },
  {
    path: 'mine/bank-card-list',
    element: requireAuth(
      lazyPage(
        () => import('../features/funding/components/bank-card-list-page'),
        (m) => m.BankCardListPage,
      ),
    ),
  },
  {
    path: 'mine/coin-address-list',
    element: requireAuth(
      lazyPage(
        () => import('../features/funding/components/coin-address-list-page'),
        (m) => m.CoinAddressListPage,
      ),
    ),
  },
  {
    path: 'mine/auth',
    element: requireAuth(
      lazyPage(
        () => import('../features/identity/components/identity-page'),
        (m) => m.IdentityPage,
      ),
    ),
  },
  {
    path: 'mine/invite',
    element: requireAuth(
      lazyPage(
        () => import('../features/account/components/invite-page'),
        (m) => m.InvitePage,
      ),
    ),
  },
  {
    path: 'mine/partner',
    element: requireAuth(
      lazyPage(
        () => import('../features/partners/components/partner-page'),
        (m) => m.PartnerPage,
      ),
    ),
  },
  {
    path: 'mine/password',
    element: requireAuth(
      lazyPage(
        () => import('../features/account/components/password-page'),
        (m) => m.PasswordPage,
      ),
    ),
  },
  {
    path: 'mine/two-factor',
    element: requireAuth(
      lazyPage(
        () => import('../features/account/components/two-factor-page'),
        (m) => m.TwoFactorPage,
      ),
    ),
  },
  {
    path: 'mine/api-keys',
    element: requireAuth(
      lazyPage(
        () => import('../features/account/components/api-keys-page'),
        (m) => m.ApiKeysPage,
      ),
    ),
  },
  {
    path: 'mine/email',
    element: requireAuth(
      lazyPage(
        () => import('../features/account/components/email-page'),
        (m) => m.EmailPage,
      ),
    ),
  },
  {
    path: 'mine/announcement',
    element: lazyPage(
      () => import('../features/news/components/announcement-page'),
      (m) => m.AnnouncementPage,
    ),
  },
  {
    path: 'mine/notifications',
    element: requireAuth(
      lazyPage(
        () => import('../features/account/components/notifications-page'),
        (m) => m.NotificationsPage,
      ),
    ),
  },
  {
    path: 'mine/system',
    element: lazyPage(
      () => import('../features/account/components/system-page'),
      (m) => m.SystemPage,
    ),
  },
  {
    path: 'mine/chat',
    element: lazyPage(
      () => import('../features/support/components/chat-page'),
      (m) => m.ChatPage,
    ),
  },
  {
    path: '*',
    element: lazyPage(
      () => import('./not-found-page'),
      (m) => m.NotFoundPage,
    ),
  },
];

export const routes: RouteObject[] = [
  {
    path: '/admin/*',
    element: (
      <Suspense fallback={<PageSpinner />}>
        {lazyPage(
          () => import('../features/admin/components/admin-page'),
          (m) => m.AdminPage,
        )}
      </Suspense>
    ),
    errorElement: <RouteError />,
  },
  // A statement as a document to print: outside the app's frame.
  {
    path: '/mine/statements/print',
    element: requireAuth(
      <Suspense fallback={<PageSpinner />}>
        {lazyPage(
          () => import('../features/statements/components/statement-print-page'),
          (m) => m.StatementPrintPage,
        )}
      </Suspense>,
    ),
    errorElement: <RouteError />,
  },
  { path: '/', element: <DesktopOrMobileRoot />, errorElement: <RouteError />, children: traderRoutes },
];

export const router = createBrowserRouter(routes);

setNavigator((to, options) => {
  void router.navigate(to, options);
});
