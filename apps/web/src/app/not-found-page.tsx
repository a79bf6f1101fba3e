import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../components/ui/page-header';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.not_found')} />
      <div className="flex flex-col items-center gap-4 px-6 py-16 text-center text-muted">
        <p>{t('errors.not_found')}</p>
        <Link to="/" className="rounded-lg bg-accent px-4 py-2.5 text-sm font-medium text-on-accent">
          {t('errors.go_home')}
        </Link>
      </div>
    </>
  );
}
