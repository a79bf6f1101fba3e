import pg from 'pg';
import type { Logger } from 'pino';

/** Retry turns a leader that lost its lock connection waits before it competes again. */
const LOST_LEADER_HOLD_OFF_TURNS = 3;

/** The advisory lock every server of one database competes for (an arbitrary constant). */
export const LEADER_LOCK_KEY = 7_320_514_611;

export interface LeaderCallbacks {
  /** Starts the leader-only work (price feed, engine). */
  onElected(): Promise<void>;
  /** Stops it; also called when leadership is lost. */
  onDeposed(): Promise<void>;
}

export interface LeaderElector {
  readonly isLeader: boolean;
  /** Makes a first attempt (so a lone server is leader when this resolves), then keeps trying. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** One process on its own database (PGlite): always the leader. */
export class SoleLeader implements LeaderElector {
  isLeader = false;

  constructor(private readonly callbacks: LeaderCallbacks) {}

  async start(): Promise<void> {
    this.isLeader = true;
    await this.callbacks.onElected();
  }

  async stop(): Promise<void> {
    if (!this.isLeader) return;
    this.isLeader = false;
    await this.callbacks.onDeposed();
  }
}

export interface PgLeaderOptions {
  url: string;
  log: Logger;
  /** Shown in pg_stat_activity, to tell which server leads. */
  name: string;
  retryMs?: number;
  /** A leader whose lock connection does not answer within this time steps down. */
  pingTimeoutMs?: number;
  key?: number;
}

/**
 * Leader election on PostgreSQL: a dedicated connection holds `pg_try_advisory_lock`. A process
 * that dies closes its connection and PostgreSQL releases the lock at once; a follower's next try
 * (every ~1 s) wins it. The leader pings its connection and steps down when it stops answering;
 * then it waits a few turns before competing again, so a follower takes over rather than the
 * server that just lost its connection winning the lock back.
 */
export class PgLeaderElector implements LeaderElector {
  isLeader = false;
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private chain: Promise<void> = Promise.resolve();
  private readonly retryMs: number;
  private readonly pingTimeoutMs: number;
  private readonly key: number;
  /** After losing its lock connection, this server lets the others try first until then. */
  private holdOffUntil = 0;

  constructor(
    private readonly opts: PgLeaderOptions,
    private readonly callbacks: LeaderCallbacks,
  ) {
    this.retryMs = opts.retryMs ?? 1_000;
    this.pingTimeoutMs = opts.pingTimeoutMs ?? 3_000;
    this.key = opts.key ?? LEADER_LOCK_KEY;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.step();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.serially(() => this.stepDown('stopping'));
  }

  /** Election steps never overlap: a step-down finishes before the next try for the lock. */
  private serially(fn: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(fn).catch((err: unknown) => this.opts.log.error({ err }, 'leader election step failed'));
    return this.chain;
  }

  /** One turn: try for the lock while following, check the connection while leading; then plan the next turn. */
  private async step(): Promise<void> {
    await this.serially(() => (this.isLeader ? this.ping() : this.tryToLead()));
    if (!this.stopped) {
      this.timer = setTimeout(() => void this.step(), this.retryMs);
      this.timer.unref();
    }
  }

  private async tryToLead(): Promise<void> {
    if (this.stopped || Date.now() < this.holdOffUntil) return;
    const client = this.client ?? (await this.connect());
    if (!client) return;
    let locked: boolean;
    try {
      const res = await withTimeout(client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [this.key]), this.pingTimeoutMs);
      locked = res.rows[0]?.locked === true;
    } catch (err) {
      this.opts.log.warn({ err: { message: (err as Error).message } }, 'leader election: lock query failed');
      await this.stepDown('lock query failed');
      return;
    }
    if (!locked) return;
    if (this.stopped) return this.stepDown('stopping');
    this.isLeader = true;
    this.opts.log.info({ server: this.opts.name }, 'elected leader: starting the leader-only tasks');
    try {
      await this.callbacks.onElected();
    } catch (err) {
      // Let another server (or this one, a moment later) try.
      await this.stepDown('leader tasks failed to start', err);
    }
  }

  private async ping(): Promise<void> {
    try {
      await withTimeout(this.client!.query('select 1'), this.pingTimeoutMs);
    } catch (err) {
      await this.stepDown('lock connection lost', err);
    }
  }

  private async connect(): Promise<pg.Client | null> {
    const client = new pg.Client({
      connectionString: this.opts.url,
      application_name: this.opts.name,
      keepAlive: true,
      keepAliveInitialDelayMillis: 1_000,
      connectionTimeoutMillis: this.pingTimeoutMs,
    });
    client.on('error', (err) => {
      if (this.client !== client) return;
      this.client = null;
      void this.onConnectionLost(err);
    });
    client.on('end', () => {
      if (this.client !== client) return;
      this.client = null;
      void this.onConnectionLost(new Error('connection ended'));
    });
    try {
      await client.connect();
    } catch (err) {
      this.opts.log.warn({ err: { message: (err as Error).message } }, 'leader election: database not reachable');
      client.end().catch(() => undefined);
      return null;
    }
    this.client = client;
    return client;
  }

  private onConnectionLost(err: Error): Promise<void> {
    return this.serially(async () => {
      if (this.isLeader) await this.stepDown('lock connection lost', err);
    });
  }

  private async stepDown(reason: string, err?: unknown): Promise<void> {
    const client = this.client;
    this.client = null;
    if (this.isLeader) {
      this.isLeader = false;
      // A leader cut off from the database is the least likely to serve well: the followers get
      // a few turns to take over before it competes again.
      if (reason === 'lock connection lost') this.holdOffUntil = Date.now() + LOST_LEADER_HOLD_OFF_TURNS * this.retryMs;
      this.opts.log.warn({ reason, err }, 'leadership lost: stopping the leader-only tasks');
      await this.callbacks.onDeposed();
    }
    // Closing the connection releases the lock if PostgreSQL still holds it for us.
    if (client) await withTimeout(client.end(), 1_000).catch(() => destroySocket(client));
  }
}

function destroySocket(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
