import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /mine/announcement: the screen itself comes with its feature issue. */
export function AnnouncementPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.announcement')} />
      <EmptyState />
    </>
  );
}
