import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './platform/db/client.ts';
import type { Bus } from './platform/bus.ts';

/**
 * Services each module puts on the context. Modules add their own entry by declaration merging:
 * `declare module '../../context.ts' { interface Services { market: MarketService } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}

export interface AppContext {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  log: Logger;
  bus: Bus;
  services: Services;
  /** Started after the routes: price feed, engine, timers. Stopped in reverse order on shutdown. */
  background: BackgroundTask[];
}

export interface BackgroundTask {
  name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export interface AuthUser {
  id: number;
  uid: string;
  email: string | null;
  isDemo: boolean;
  sessionId: number;
}

export interface AuthStaff {
  id: number;
  email: string;
  name: string;
  roles: string[];
  sessionId: number;
}
