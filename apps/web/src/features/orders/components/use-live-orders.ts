import { useQueryClient } from '@tanstack/react-query';
import type { Order } from '@tp/contract/schemas/trading';
import { useState } from 'react';
import { useSocketTopic } from '../../../lib/use-socket';
import { refreshAccount } from '../../../api/refresh-account';
import { myDealQueryKey, type MyDeal } from '../api/get-my-deal';

/** Account figures carried by every FOREX_TRADE push (PROTOCOL.md). */
export interface LiveFigures {
  equity: string;
  riskRate: string;
  availablePrepayment: string;
  floatingProfit: string;
  balance: string;
  lockBalance: string;
  margin: string;
}

/** A FOREX_TRADE push, parsed; null when it is not one. */
export function figuresOfPush(message: Record<string, unknown>): LiveFigures | null {
  if (typeof message.equity !== 'string') return null;
  return {
    equity: message.equity,
    riskRate: String(message.HazardRate ?? '0'),
    availablePrepayment: String(message.available_prepayment ?? ''),
    floatingProfit: String(message.ProfitsTotal ?? ''),
    balance: String(message.balance ?? ''),
    lockBalance: String(message.lock_balance ?? ''),
    margin: String(message.CautionMoneyAll ?? ''),
  };
}

/** The holding list after a push: the pushed open positions, newest first as the list shows them. */
export function holdingAfterPush(current: MyDeal | undefined, positions: Order[], floating: string): MyDeal | undefined {
  if (!current) return current;
  const sorted = [...positions].sort((a, b) => b.Id - a.Id);
  return { ...current, data: sorted, total: sorted.length, all_fact_profits: floating || current.all_fact_profits };
}

export function withoutOrders(current: MyDeal | undefined, ids: Set<number>): MyDeal | undefined {
  if (!current) return current;
  const data = current.data.filter((order) => !ids.has(order.Id));
  return data.length === current.data.length
    ? current
    : { ...current, data, total: Math.max(0, current.total - (current.data.length - data.length)) };
}

/**
 * Keeps the order lists live: FOREX_TRADE replaces the open positions (current price and floating
 * profit), FOREX_CLOSED removes closed or cancelled orders and calls `onClosed` with their ids.
 */
export function useLiveOrders(onClosed?: (ids: number[]) => void): LiveFigures | null {
  const queryClient = useQueryClient();
  const [figures, setFigures] = useState<LiveFigures | null>(null);

  useSocketTopic('FOREX_TRADE', (message) => {
    const positions = message.TransOrder;
    const next = figuresOfPush(message);
    if (next) setFigures(next);
    queryClient.setQueryData<MyDeal>(myDealQueryKey(1), (current) => holdingAfterPush(current, positions, next?.floatingProfit ?? ''));
    // A pending order that filled now shows among the positions.
    const filled = new Set(positions.map((p) => p.Id));
    queryClient.setQueryData<MyDeal>(myDealQueryKey(0), (current) => withoutOrders(current, filled));
  });

  useSocketTopic('FOREX_CLOSED', (message) => {
    const ids = message.id;
    if (ids.length === 0) return;
    const gone = new Set(ids);
    queryClient.setQueryData<MyDeal>(myDealQueryKey(1), (current) => withoutOrders(current, gone));
    queryClient.setQueryData<MyDeal>(myDealQueryKey(0), (current) => withoutOrders(current, gone));
    refreshAccount(queryClient);
    onClosed?.(ids);
  });

  return figures;
}
