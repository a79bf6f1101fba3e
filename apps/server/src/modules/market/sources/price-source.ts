import type { Logger } from 'pino';
import type { Config } from '../../../config.ts';
import type { MarketServiceImpl } from '../market-service.ts';

/** Where prices come from. Every source hands its ticks to `market.publishTick`. */
export interface PriceSource {
  readonly name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
  /** A FIX source's sessions (/health/ready, /metrics). */
  sessions?(): FixSessionStatus[];
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
  /** Quotes handed to the quote pipeline. */
  quotes: number;
}
