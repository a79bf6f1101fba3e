import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { DrawMethodList } from './draw-method-list';

/** /mine/bank-card-list: bound bank accounts. */
export function BankCardListPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.bank_card_list')} />
      <RealAccountOnly>
        <DrawMethodList type={2} />
      </RealAccountOnly>
    </>
  );
}
