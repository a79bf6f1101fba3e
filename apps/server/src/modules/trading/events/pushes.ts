import { fixed, moneyStr } from '@tp/contract/decimal';
import { pushMessage, type PushBody, type ServerMessageOf } from '@tp/contract/pushes';
import type { Notice, Order } from '@tp/contract/schemas/trading';
import type { Services } from '../../../context.ts';
import type { Bus } from '../../../platform/bus.ts';
import type { Figures } from '../engine/figures.ts';
import { BusChannels } from '../../../platform/bus-channels.ts';
import { publishJournaled, type PushJournal } from '../../../platform/push-journal.ts';

/** Where a user's pushes go: the bus, the journal a reconnecting client replays from, and the trader's devices (Web Push). */
export interface PushOutlet {
  bus: Bus;
  pushJournal: PushJournal;
  services: Pick<Services, 'webPush'>;
}

/** FOREX_CLOSED: the ids of orders that just closed or were cancelled (sent at once, never coalesced; kept for replay). */
export function publishClosed(out: PushOutlet, userId: number, ids: number[]): void {
  publishJournaled(out.bus, out.pushJournal, userId, pushMessage('FOREX_CLOSED', { id: ids }));
}

/** NOTICE: a close or fill the trader did not make themselves (take-profit, stop-loss, stop-out, staff, pending fill or cancellation). */
export function publishNotice(out: PushOutlet, userId: number, notice: Notice): void {
  publishJournaled(out.bus, out.pushJournal, userId, pushMessage('NOTICE', notice));
  out.services.webPush.notice(userId, notice);
}

/** The NOTICE of a margin call: the account's margin level (percent) in `price`; no order. */
export function marginCallNotice(riskRate: string | null, at: number): Notice {
  return {
    kind: 'margin_call',
    order_id: 0,
    forex_id: 0,
    symbol: '',
    order_type: 0,
    lots: '0',
    price: riskRate === null ? '0' : fixed(riskRate, 2),
    profit: '0',
    time: Math.floor(at / 1000),
  };
}

/** The FOREX_TRADE push as the contract declares it. */
export type ForexTradeMessage = ServerMessageOf<'FOREX_TRADE'>;

type Body = Omit<PushBody<'FOREX_TRADE'>, 'To' | 'margin_call'>;

/**
 * FOREX_TRADE: the account figures and open positions at current prices, computed when the message
 * is first read or serialized, that is only when someone listens (one small object otherwise).
 */
export class ForexTradePush implements ForexTradeMessage {
  readonly type = 'FOREX_TRADE' as const;
  #body: Body | undefined;

  constructor(
    readonly To: number,
    readonly margin_call: 0 | 1,
    private readonly snapshot: () => { figures: Figures; positions: Order[] },
  ) {}

  get #data(): Body {
    return (this.#body ??= bodyOf(this.snapshot()));
  }
  get HazardRate() {
    return this.#data.HazardRate;
  }
  get CautionMoneyAll() {
    return this.#data.CautionMoneyAll;
  }
  get ProfitsTotal() {
    return this.#data.ProfitsTotal;
  }
  get OriginCautionMoneyTotal() {
    return this.#data.OriginCautionMoneyTotal;
  }
  get TransOrder() {
    return this.#data.TransOrder;
  }
  get balance() {
    return this.#data.balance;
  }
  get lock_balance() {
    return this.#data.lock_balance;
  }
  get equity() {
    return this.#data.equity;
  }
  get available_prepayment() {
    return this.#data.available_prepayment;
  }
  get prepayment_ratio() {
    return this.#data.prepayment_ratio;
  }

  toJSON(): ForexTradeMessage {
    return pushMessage('FOREX_TRADE', { To: this.To, ...this.#data, margin_call: this.margin_call });
  }
}

export function publishTrade(
  bus: Bus,
  userId: number,
  marginCall: boolean,
  snapshot: () => { figures: Figures; positions: Order[] },
): void {
  bus.publish(BusChannels.userChannel(userId), new ForexTradePush(userId, marginCall ? 1 : 0, snapshot));
}

function bodyOf({ figures: f, positions }: { figures: Figures; positions: Order[] }): Body {
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
