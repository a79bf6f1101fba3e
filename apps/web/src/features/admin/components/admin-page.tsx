import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { useDocumentTitle } from '../../../lib/document-title';

/** /admin/*: the back office lives in its own lazy chunk; its screens come with the admin issue. */
export function AdminPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('pages.admin'));
  return (
    <main className="mx-auto min-h-dvh max-w-6xl px-6 py-8 text-text">
      <h1 className="text-xl font-semibold">{t('pages.admin')}</h1>
      <EmptyState />
    </main>
  );
}
