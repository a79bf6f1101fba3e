import { useState } from 'react';
import { useQueryParam } from '../../../lib/query-params';
import { OrdersBoard, type BoardTab } from './orders-board';

/** The desktop terminal's positions panel: the order tabs without a page of their own. */
export function PositionsPanel() {
  const [tab, setTab] = useState<BoardTab>(1);
  return <OrdersBoard tab={tab} onTab={setTab} centred embedded currentCode={useQueryParam('symbol')} />;
}
