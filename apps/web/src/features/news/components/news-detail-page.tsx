import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /news/detail?id={id}: the screen itself comes with its feature issue. */
export function NewsDetailPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.news_detail')} />
      <EmptyState />
    </>
  );
}
