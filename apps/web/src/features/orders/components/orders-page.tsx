import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { useIsDesktop } from '../../../lib/device';
import { useQueryParam } from '../../../lib/query-params';
import { OrdersBoard, type BoardTab } from './orders-board';

export const tabOf = (value: string | null): BoardTab => (value === '0' ? 0 : value === '3' ? 3 : value === 'alerts' ? 'alerts' : 1);

/** /order?type=1|0|3|alerts: holding, pending, history and price alerts; `&id=` shows one order (a notification's link). */
export function OrdersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const desktop = useIsDesktop();
  const tab = tabOf(useQueryParam('type'));
  const id = Number(useQueryParam('id'));
  return (
    <>
      <PageHeader title={t('pages.order')} back={false} />
      <OrdersBoard
        tab={tab}
        centred={desktop}
        focusId={Number.isSafeInteger(id) && id > 0 ? id : null}
        onTab={(next) => navigate(`/order?type=${next}`, { replace: true })}
      />
    </>
  );
}
