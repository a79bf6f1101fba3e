import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router';
import { PageSpinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/document-title';
import { ADMIN_ROUTES } from '../routes';
import { useStaffSession, hasRole } from '../../../lib/staff-session-store';
import { AdminShell } from './admin-shell';
import { SignIn } from './sign-in';

/** /admin/*: the back office, in its own lazy chunk, with its own staff session. */
export function AdminPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('pages.admin'));
  const staff = useStaffSession((s) => s.staff);
  const token = useStaffSession((s) => s.token);
  if (!token || !staff) return <SignIn />;
  const allowed = ADMIN_ROUTES.filter((s) => hasRole(staff, s.roles));
  return (
    <AdminShell screens={allowed}>
      {/* The menu stays while a screen's chunk loads. */}
      <Suspense fallback={<PageSpinner />}>
        <Routes>
          {allowed.map((s) => (
            <Route key={s.path} path={`${s.path}/*`} element={<s.Screen />} />
          ))}
          <Route path="*" element={<Navigate to={`/admin/${allowed[0]?.path ?? ''}`} replace />} />
        </Routes>
      </Suspense>
    </AdminShell>
  );
}
