import type { Logger } from 'pino';
import type { Config } from '../../../config.ts';
import type { MarketServiceImpl } from '../market-service.ts';
import type { FixSymbolRoute } from './fix-router.ts';

export type { FixMode, FixSymbolRoute } from './fix-router.ts';

/** Where prices come from. Every source hands its ticks to `market.publishTick`. */
export interface PriceSource {
  readonly name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
  /** A FIX source's sessions (/health/ready, /metrics). */
  sessions?(): FixSessionStatus[];
  /** A FIX source's routing: per symbol, the providers its price comes from now. */
  routes?(): FixSymbolRoute[];
  /** A FIX source's order routing to its providers (hedging; docs/fix.md#hedging); null while its sessions do not run. */
  orders?(): FixOrderGateway | null;
}

/** A NewOrderSingle (35=D) to one provider: `quantity` in units (lots x contract size), `symbol` our code. */
export interface FixOrderRequest {
  session: string;
  clOrdId: string;
  symbol: string;
  side: 'buy' | 'sell';
  quantity: string;
  /** Limit price, sent as OrdType 2 with TimeInForce 3 (IOC); absent: OrdType 1 (market). */
  limitPrice?: string;
}

/** An ExecutionReport (35=8) or an OrderCancelReject (35=9) as read from a provider. */
export interface FixOrderReport {
  session: string;
  kind: 'execution' | 'cancel_reject';
  clOrdId: string;
  orderId: string | null;
  execId: string | null;
  /** ExecType (150) and OrdStatus (39): 0 new, 1 partial, 2 filled, 4 cancelled, 8 rejected, C expired. */
  execType: string | null;
  ordStatus: string | null;
  lastPx: string | null;
  lastQty: string | null;
  avgPx: string | null;
  cumQty: string | null;
  leavesQty: string | null;
  text: string | null;
}

/** The FIX sessions' order side, used by the hedging desk. */
export interface FixOrderGateway {
  /** Session names, in FIX_CONFIG order (the first is the primary). */
  sessionNames(): string[];
  /** Whether the session is logged on (an order can be sent now). */
  canSend(session: string): boolean;
  /** Whether the session maps our symbol code to a provider symbol. */
  quotes(session: string, code: string): boolean;
  /** Sends the order; false when the session is not logged on or does not know the symbol. */
  send(order: FixOrderRequest): boolean;
  /** Every report of every session. */
  onReport(listener: (report: FixOrderReport) => void): void;
}

export interface SourceDeps {
  market: MarketServiceImpl;
  config: Config;
  log: Logger;
}

/** What /health/ready and the metrics show of one FIX session. */
export interface FixSessionStatus {
  name: string;
  primary: boolean;
  loggedOn: boolean;
  /** Epoch milliseconds of the newest message received (any type, heartbeats included). */
  lastMessageAt: number | null;
  /** The last sequence number received from the provider and the last one sent to it. */
  inSeqNum: number;
  outSeqNum: number;
  /** Sequence gaps seen (each one answered with a ResendRequest), logons after the first, heartbeats received. */
  gaps: number;
  reconnects: number;
  logons: number;
  heartbeats: number;
  /** Top-of-book quotes received from the provider (each handed to the router, which makes one price of them). */
  quotes: number;
}
