import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /mine/coin-address-list: the screen itself comes with its feature issue. */
export function CoinAddressListPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.coin_address_list')} />
      <EmptyState />
    </>
  );
}
