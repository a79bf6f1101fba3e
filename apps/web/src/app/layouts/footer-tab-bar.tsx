import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { DocumentaryIcon, OrderIcon, QuotesIcon, RankingIcon, TradeIcon } from '../../components/ui/icons';
import { TabBar, type TabBarItem } from '../../components/ui/tab-bar';
import { readQueryParam } from '../../lib/query-params';

/** The five footer tabs of the spec: quotes, trade, order, documentary, ranking. */
export function FooterTabBar() {
  const { t } = useTranslation();
  const { pathname, search, hash } = useLocation();
  const documentary = pathname === '/rank' && readQueryParam('tab', search, hash) === 'documentary';
  const items: TabBarItem[] = [
    { id: 'quotes', to: '/', label: t('tabs.quotes'), icon: <QuotesIcon />, active: pathname === '/' },
    { id: 'trade', to: '/trade', label: t('tabs.trade'), icon: <TradeIcon />, active: pathname === '/trade' },
    { id: 'order', to: '/order', label: t('tabs.order'), icon: <OrderIcon />, active: pathname === '/order' },
    {
      id: 'documentary',
      to: '/rank?tab=documentary',
      label: t('tabs.documentary'),
      icon: <DocumentaryIcon />,
      active: documentary,
    },
    { id: 'ranking', to: '/rank', label: t('tabs.ranking'), icon: <RankingIcon />, active: pathname === '/rank' && !documentary },
  ];
  return <TabBar items={items} label={t('tabs.label')} />;
}
