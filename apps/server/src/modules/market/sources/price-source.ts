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
