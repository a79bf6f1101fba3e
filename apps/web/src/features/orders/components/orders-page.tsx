import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /order?type=1|0|3: the screen itself comes with its feature issue. */
export function OrdersPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.order')} back={false} />
      <EmptyState />
    </>
  );
}
