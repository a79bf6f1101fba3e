import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /product (symbol search): the screen itself comes with its feature issue. */
export function ProductPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.product')} />
      <EmptyState />
    </>
  );
}
