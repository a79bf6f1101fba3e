import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { loginPath } from '../lib/navigation';
import { usePageActive } from '../lib/page-activity';
import { useSessionStore } from '../lib/session-store';

/** Login guard: a guest is sent to /login?redirect=<the wanted path with its query>. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useSessionStore((state) => state.token);
  const { pathname, search, hash } = useLocation();
  const active = usePageActive();
  if (token) return children;
  // A hidden kept-alive page must not redirect the page the user is looking at.
  if (!active) return null;
  return <Navigate to={loginPath(`${pathname}${search}${hash}`)} replace />;
}

export const requireAuth = (element: ReactNode) => <RequireAuth>{element}</RequireAuth>;
