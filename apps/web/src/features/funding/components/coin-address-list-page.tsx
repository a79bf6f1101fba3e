import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { DrawMethodList } from './draw-method-list';

/** /mine/coin-address-list: bound withdrawal addresses. */
export function CoinAddressListPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.coin_address_list')} />
      <RealAccountOnly>
        <DrawMethodList type={1} />
      </RealAccountOnly>
    </>
  );
}
