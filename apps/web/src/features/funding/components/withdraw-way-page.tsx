import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /mine/withdraw-way?type=1|2: the screen itself comes with its feature issue. */
export function WithdrawWayPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.withdraw_way')} />
      <EmptyState />
    </>
  );
}
