import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /mine/charge: the screen itself comes with its feature issue. */
export function DepositPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.charge')} />
      <EmptyState />
    </>
  );
}
