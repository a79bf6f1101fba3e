import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useDocumentTitle } from '../../../lib/document-title';
import { useStaffSession, hasRole } from '../../../lib/staff-session-store';
import { AdminShell, SCREENS } from './admin-shell';
import { SignIn } from './sign-in';

/** /admin/*: the back office, in its own lazy chunk, with its own staff session. */
export function AdminPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('pages.admin'));
  const staff = useStaffSession((s) => s.staff);
  const token = useStaffSession((s) => s.token);
  if (!token || !staff) return <SignIn />;
  const allowed = SCREENS.filter((s) => hasRole(staff, s.roles));
  return (
    <AdminShell screens={allowed}>
      <Routes>
        {allowed.map((s) => (
          <Route key={s.path} path={`${s.path}/*`} element={<s.Component />} />
        ))}
        <Route path="*" element={<Navigate to={`/admin/${allowed[0]?.path ?? ''}`} replace />} />
      </Routes>
    </AdminShell>
  );
}
