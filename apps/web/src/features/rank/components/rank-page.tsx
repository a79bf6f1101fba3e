import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { useQueryParam } from '../../../lib/query-params';

/** /rank: trader ranking; /rank?tab=documentary: the copy-trading list (footer tab documentary). */
export function RankPage() {
  const { t } = useTranslation();
  const documentary = useQueryParam('tab') === 'documentary';
  return (
    <>
      <PageHeader title={documentary ? t('pages.documentary') : t('pages.rank')} back={false} />
      <EmptyState />
    </>
  );
}
