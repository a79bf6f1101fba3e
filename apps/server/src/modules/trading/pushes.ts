import { fixed, moneyStr } from '@tp/contract/decimal';
import type { Order } from '@tp/contract/schemas/trading';
import type { Bus } from '../../platform/bus.ts';
import { BusChannels } from '../market/types.ts';
import type { Figures } from './figures.ts';

/** FOREX_CLOSED: the ids of orders that just closed or were cancelled (sent at once, never coalesced). */
export function publishClosed(bus: Bus, userId: number, ids: number[]): void {
  bus.publish(BusChannels.userChannel(userId), { type: 'FOREX_CLOSED', id: ids });
}

export interface ForexTradeMessage {
  type: 'FOREX_TRADE';
  To: number;
  /** Risk rate in percent ("0" while nothing is open). */
  HazardRate: string;
  /** Margin of open positions. */
  CautionMoneyAll: string;
  /** Floating profit of open positions. */
  ProfitsTotal: string;
  /** lock_balance: margin of open positions plus reservations of pending orders. */
  OriginCautionMoneyTotal: string;
  TransOrder: Order[];
  balance: string;
  lock_balance: string;
  equity: string;
  available_prepayment: string;
  prepayment_ratio: string;
  margin_call: 0 | 1;
}

/**
 * FOREX_TRADE: the account figures and open positions at current prices. Computed when the message
 * is first read or serialized, that is only when someone listens.
 */
export function publishTrade(bus: Bus, userId: number, marginCall: boolean, compute: () => { figures: Figures; positions: Order[] }): void {
  let body: Omit<ForexTradeMessage, 'type' | 'To' | 'margin_call'> | undefined;
  const read = () => (body ??= bodyOf(compute()));
  const message = { type: 'FOREX_TRADE', To: userId, margin_call: marginCall ? 1 : 0 } as ForexTradeMessage;
  for (const key of [
    'HazardRate',
    'CautionMoneyAll',
    'ProfitsTotal',
    'OriginCautionMoneyTotal',
    'TransOrder',
    'balance',
    'lock_balance',
    'equity',
    'available_prepayment',
    'prepayment_ratio',
  ] as const) {
    Object.defineProperty(message, key, { enumerable: true, get: () => read()[key] });
  }
  bus.publish(BusChannels.userChannel(userId), message);
}

function bodyOf({ figures: f, positions }: { figures: Figures; positions: Order[] }) {
  return {
    HazardRate: f.riskRate ? fixed(f.riskRate, 2) : '0',
    CautionMoneyAll: moneyStr(f.openMargin),
    ProfitsTotal: moneyStr(f.floatingProfit),
    OriginCautionMoneyTotal: moneyStr(f.lockBalance),
    TransOrder: positions,
    balance: moneyStr(f.balance),
    lock_balance: moneyStr(f.lockBalance),
    equity: moneyStr(f.equity),
    available_prepayment: moneyStr(f.freeMargin),
    prepayment_ratio: f.prepaymentRatio ? fixed(f.prepaymentRatio, 2) : '0',
  };
}
