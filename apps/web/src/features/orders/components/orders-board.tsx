import type { Order } from '@tp/contract/schemas/trading';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { myDealQueryKey, type MyDeal, type OrderTab } from '../api/get-my-deal';
import { useIsDesktop } from '../../../lib/device';
import { AccountSummary } from './account-summary';
import { OrderDetailSheet } from './order-detail-sheet';
import { AlertsList } from './alerts-list';
import { HistoryList, HoldingList, PendingList } from './order-lists';
import { PositionToolDialog, type PositionTool } from './position-actions';
import { useLiveOrders } from './use-live-orders';

const TABS: { tab: BoardTab; key: 'holding' | 'pending' | 'history' | 'alerts' }[] = [
  { tab: 1, key: 'holding' },
  { tab: 0, key: 'pending' },
  { tab: 3, key: 'history' },
  { tab: 'alerts', key: 'alerts' },
];

/** The order tabs, and the price alerts next to them. */
export type BoardTab = OrderTab | 'alerts';

/** Account figures, the three tabs and the detail sheet; shared by /order and the desktop terminal. */
export function OrdersBoard({
  tab,
  onTab,
  centred,
  embedded = false,
  currentCode,
  focusId = null,
}: {
  tab: BoardTab;
  onTab: (tab: BoardTab) => void;
  centred: boolean;
  /** Inside the terminal's panel: the tabs do not stick under the page header. */
  embedded?: boolean;
  /** The trade screen's symbol: close-all acts on it by default. */
  currentCode?: string | null;
  /** An order to show (a notification's link): scrolled to and marked in its tab, its sheet opened while it is live. */
  focusId?: number | null;
}) {
  const { t } = useTranslation();
  const desktop = useIsDesktop();
  const queryClient = useQueryClient();
  const [detailId, setDetailId] = useState<number | null>(null);
  const [tool, setTool] = useState<{ tool: PositionTool; order: Order } | null>(null);
  const live = useLiveOrders((ids) => {
    if (detailId !== null && ids.includes(detailId)) setDetailId(null);
    if (tool && ids.includes(tool.order.Id)) setTool(null);
  });
  // The open sheet follows the live figures of its order.
  const detail: Order | undefined =
    detailId === null
      ? undefined
      : [1, 0]
          .flatMap((status) => queryClient.getQueryData<MyDeal>(myDealQueryKey(status as OrderTab))?.data ?? [])
          .find((order) => order.Id === detailId);
  const open = (order: Order) => setDetailId(order.Id);
  const panel = useRef<HTMLDivElement>(null);
  // A notification's order: once its row is on the page, scroll to it and mark it; a live one opens its sheet.
  useEffect(() => {
    if (focusId === null) return;
    let done = false;
    const find = () => {
      const row = panel.current?.querySelector<HTMLElement>(`[data-order-id="${focusId}"]`);
      if (!row || done) return;
      done = true;
      row.setAttribute('aria-current', 'true');
      row.classList.add('ring-2', 'ring-accent', 'ring-inset');
      row.tabIndex = -1;
      row.scrollIntoView({ block: 'center' });
      row.focus({ preventScroll: true });
      if (tab === 1 || tab === 0) setDetailId(focusId);
    };
    find();
    const observer = new MutationObserver(find);
    if (panel.current) observer.observe(panel.current, { childList: true, subtree: true });
    const stop = setTimeout(() => observer.disconnect(), 10_000);
    return () => {
      observer.disconnect();
      clearTimeout(stop);
    };
  }, [focusId, tab]);
  // Desktop: MT5-like tables; phone: cards.
  const look = { table: desktop, embedded };
  const openTool = (kind: PositionTool, order: Order) => {
    setDetailId(null);
    setTool({ tool: kind, order });
  };

  return (
    <>
      {(tab === 1 || embedded) && <AccountSummary live={live} bar={embedded} />}
      <div
        role="tablist"
        aria-label={t('orders.tabs')}
        className={`${embedded ? '' : 'sticky top-[calc(var(--header-offset,0px)+3rem)]'} z-10 flex border-b border-border bg-bg`}
      >
        {TABS.map((item) => (
          <button
            key={item.tab}
            type="button"
            role="tab"
            aria-selected={tab === item.tab}
            onClick={() => onTab(item.tab)}
            className={`flex-1 py-2.5 text-sm ${tab === item.tab ? 'border-b-2 border-accent text-text' : 'text-muted'}`}
          >
            {t(`orders.${item.key}`)}
          </button>
        ))}
      </div>
      <div
        ref={panel}
        role="tabpanel"
        aria-label={t(`orders.${TABS.find((x) => x.tab === tab)!.key}`)}
        className={embedded ? 'flex min-h-0 flex-1 flex-col overflow-auto' : undefined}
      >
        {tab === 1 && <HoldingList onOpen={open} onTool={openTool} centred={centred} currentCode={currentCode} {...look} />}
        {tab === 0 && <PendingList onOpen={open} {...look} />}
        {tab === 3 && <HistoryList {...look} />}
        {tab === 'alerts' && <AlertsList />}
      </div>
      {detail && <OrderDetailSheet order={detail} centred={centred} onTool={openTool} onClose={() => setDetailId(null)} />}
      {tool && <PositionToolDialog tool={tool.tool} order={tool.order} centred={centred} onClose={() => setTool(null)} />}
    </>
  );
}
