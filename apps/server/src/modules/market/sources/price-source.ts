import type { Logger } from 'pino';
import type { Config } from '../../../config.ts';
import type { MarketServiceImpl } from '../market-service.ts';
import type { FixSessionStatus } from './fix-feed.ts';

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
