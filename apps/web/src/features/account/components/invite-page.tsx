import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /mine/invite: the screen itself comes with its feature issue. */
export function InvitePage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.invite')} />
      <EmptyState />
    </>
  );
}
