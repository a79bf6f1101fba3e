import { useState } from 'react';
import type { OrderTab } from '../api/get-my-deal';
import { OrdersBoard } from './orders-board';

/** The desktop terminal's positions panel: the order tabs without a page of their own. */
export function PositionsPanel() {
  const [tab, setTab] = useState<OrderTab>(1);
  return <OrdersBoard tab={tab} onTab={setTab} centred embedded />;
}
