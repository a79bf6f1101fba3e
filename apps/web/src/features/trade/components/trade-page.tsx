import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /trade: the screen itself comes with its feature issue. */
export function TradePage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.trade')} back={false} />
      <EmptyState />
    </>
  );
}
