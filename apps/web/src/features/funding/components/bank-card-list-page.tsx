import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /mine/bank-card-list: the screen itself comes with its feature issue. */
export function BankCardListPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.bank_card_list')} />
      <EmptyState />
    </>
  );
}
