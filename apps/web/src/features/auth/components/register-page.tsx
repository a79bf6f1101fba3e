import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /register?invite_code=...: the screen itself comes with its feature issue. */
export function RegisterPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.register')} />
      <EmptyState />
    </>
  );
}
