import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db, TransactionWith } from './platform/db/client.ts';
import type { Metrics } from './observability/metrics.ts';
import type { Bus } from './platform/bus.ts';
import type { PushJournal } from './platform/push-journal.ts';
import type { Storage } from './platform/storage.ts';

/**
 * Services each module puts on the context. Modules add their own entry by declaration merging:
 * `declare module '../../context.ts' { interface Services { market: MarketService } }`.
 */
export interface Services {}

export interface AppContext {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  /** Transactions whose first statement travels with BEGIN (absent in some tools: plain transactions then). */
  transactionWith?: TransactionWith;
  log: Logger;
  bus: Bus;
  /** A user's recent NOTICE and FOREX_CLOSED pushes, for a client that reconnects (replay). */
  pushJournal: PushJournal;
  /** Uploaded files (local directory now; an object store later). */
  storage: Storage;
  services: Services;
  /** Prometheus series of this server (GET /metrics). */
  metrics: Metrics;
  /**
   * Several servers may share this database (PostgreSQL from DATABASE_URL): leader-only tasks run
   * under an election, and work for them crosses the bus. False for a lone PGlite process and tests.
   */
  clustered: boolean;
  /** The leader lease's epoch this server holds or last held (clustered), which the engine's writes carry. */
  leaderEpoch?: () => number | undefined;
  /** Started after the routes: price feed, engine, timers. Stopped in reverse order on shutdown. */
  background: BackgroundTask[];
}

export interface BackgroundTask {
  name: string;
  /** Runs on one server at a time (the elected leader) when several share a database. */
  leaderOnly?: boolean;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export interface AuthUser {
  id: number;
  uid: string;
  email: string | null;
  isDemo: boolean;
  sessionId: number;
  /** When the session expires; a socket stops its pushes then. */
  expiresAt: Date;
  /** Set when an API key authenticated the call (sessionId is then minus the key id). */
  apiKey?: { id: number; scopes: string[] };
}

export interface AuthStaff {
  id: number;
  email: string;
  name: string;
  roles: string[];
  sessionId: number;
  expiresAt: Date;
}
